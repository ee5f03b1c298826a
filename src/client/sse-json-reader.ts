import { APIError } from "openai";
import { readErrorDetail } from "../core/api/error-body";
import { SSE_DONE, SseParser } from "../core/api/sse";
import { MalformedResponseError } from "./error-mapping";
import { describeHtmlPage } from "./html-page";
import type { RequestScope } from "./request-scope";

export interface SseReadOptions {
  /** Abort when no bytes arrive for this long. */
  idleMs: number;
  /** Whether an end of stream without `[DONE]` is still a complete answer (a finish_reason was seen). */
  completeWithoutDone: () => boolean;
}

/**
 * Yields the JSON payload of each event of an OpenAI SSE response until `[DONE]`. A JSON body
 * (a server that ignored `stream: true`) is yielded as a single payload.
 */
export async function* readSseJson(
  response: Response,
  scope: RequestScope,
  options: SseReadOptions,
): AsyncGenerator<unknown, void, undefined> {
  if (isJson(response)) {
    yield await readJsonBody(response, scope, options.idleMs);
    return;
  }
  scope.touch(options.idleMs);
  if (isHtml(response)) throw new MalformedResponseError(describeHtmlPage(await response.text()) ?? "it is an HTML page, not an event stream");
  if (response.body === null) throw new MalformedResponseError("the stream has no body");
  const reader = response.body.getReader();
  const parser = new SseParser();
  try {
    for (;;) {
      scope.touch(options.idleMs);
      const { value, done } = await reader.read();
      for (const event of done ? parser.end() : parser.feed(value)) {
        // Some servers pad it: "data: [DONE] ".
        if (event.data.trim() === SSE_DONE) return;
        if (event.event === "error") throw errorEventError(event.data);
        yield throwIfErrorEvent(parseJson(event.data));
      }
      if (done) break;
    }
  } finally {
    reader.releaseLock();
  }
  if (!options.completeWithoutDone()) {
    throw new MalformedResponseError("the stream ended without [DONE] before the answer was finished");
  }
}

/**
 * The JSON body of a response whose headers have arrived. The SDK's timeout ends with the headers:
 * a body that stalls after them (a proxy, a busy server) fails after `idleMs` instead of never.
 */
export async function readJsonBody(response: Response, scope: RequestScope, idleMs: number): Promise<unknown> {
  scope.touch(idleMs);
  const text = await response.text();
  return throwIfErrorEvent(parseJson(text, () => describeHtmlPage(text) ?? "its body is not valid JSON"));
}

function isHtml(response: Response): boolean {
  return /^text\/html\b/i.test(response.headers.get("content-type") ?? "");
}

function isJson(response: Response): boolean {
  return /^application\/(.+\+)?json\b/i.test(response.headers.get("content-type") ?? "");
}

/**
 * Servers report failures after the headers as an event carrying an `error` (an object or its
 * message); LM Studio answers a path it does not serve with 200 and such a body.
 */
function throwIfErrorEvent(payload: unknown): unknown {
  const error = typeof payload === "object" && payload !== null ? (payload as { error?: unknown }).error : undefined;
  const detail = error === undefined || error === null ? undefined : readErrorDetail(payload);
  if (detail !== undefined) throw new APIError(undefined, detail, undefined, undefined);
  return payload;
}

/**
 * An event of type error (`event: error`, as gateways send it, or llama.cpp's `error:` line),
 * whose data is the error object or its message.
 */
function errorEventError(data: string): APIError {
  let payload: unknown = data;
  try {
    payload = JSON.parse(data);
  } catch {
    // Plain text: the message itself.
  }
  const detail = readErrorDetail(payload) ?? { message: data, type: "error", param: null, code: null };
  return new APIError(undefined, detail, undefined, undefined);
}

/** `text` parsed; `what` says what was wrong when it is not JSON. */
function parseJson(text: string, what: () => string = () => "a stream event is not valid JSON"): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new MalformedResponseError(what());
  }
}
