import OpenAI from "openai";
import type { AgentChatRequest, ChatRequest, CompletionRequest, ImageRequest, ModelInfo } from "../core/api/types";
import { parseBaseUrl, type BaseUrl } from "./base-url";
import { refusesStreamOptions, toWispError, type ErrorContext } from "./error-mapping";
import { RequestScope } from "./request-scope";
import {
  isSeed,
  parseChatChunk,
  parseCompletionChunk,
  parseImages,
  parseModelList,
  type ChatDelta,
  type CompletionDelta,
  type GeneratedImages,
} from "./response-parsing";
import { readJsonBody, readSseJson } from "./sse-json-reader";
import { WispError } from "./wisp-error";
import { WispSdk } from "./wisp-sdk";

export interface ClientConfig {
  /** The API root, e.g. `http://127.0.0.1:8765/v1`. */
  baseUrl: string;
  apiKey: string | undefined;
  /** Longest wait for the response headers and, while streaming, between two chunks. Default 60 s. */
  timeoutMs?: number;
  /** Longest wait for an image (generation on a CPU is slow). Default 10 min. */
  imageTimeoutMs?: number;
  /**
   * Retries of transient failures (connection errors, 429, 5xx) by the SDK. Default 0: every Wisp
   * call is interactive, so it fails fast with a WispError (carrying retryAfterMs) and the caller
   * decides. Streams never retry: the next keystroke or message asks again.
   */
  maxRetries?: number;
}

export type { ChatDelta, CompletionDelta, GeneratedImages };

const defaultTimeoutMs = 60_000;
const defaultImageTimeoutMs = 600_000;

/**
 * The node-side client of an OpenAI-compatible API. Every method takes an AbortSignal that
 * closes the HTTP connection at once, and fails only with a WispError.
 */
export class WispClient {
  private readonly endpoint: BaseUrl;
  private readonly apiKey: string | undefined;
  private readonly timeoutMs: number;
  private readonly imageTimeoutMs: number;
  private readonly maxRetries: number;

  constructor(config: ClientConfig) {
    this.endpoint = parseBaseUrl(config.baseUrl);
    this.apiKey = config.apiKey?.trim() || undefined;
    this.timeoutMs = config.timeoutMs ?? defaultTimeoutMs;
    this.imageTimeoutMs = config.imageTimeoutMs ?? defaultImageTimeoutMs;
    this.maxRetries = config.maxRetries ?? 0;
  }

  /** `GET /models`. */
  listModels(signal?: AbortSignal): Promise<ModelInfo[]> {
    return this.request(signal, undefined, this.timeoutMs, async (sdk, scope) => {
      const response = await sdk.get("/models", this.options(scope, this.timeoutMs, this.maxRetries)).asResponse();
      return parseModelList(await readJsonBody(response, scope, this.timeoutMs));
    });
  }

  /** `POST /completions` with `stream: true`; yields text as it arrives. */
  streamCompletion(req: CompletionRequest, signal?: AbortSignal): AsyncIterable<CompletionDelta> {
    return this.stream("/completions", req, req.model, signal, parseCompletionChunk);
  }

  /** `POST /chat/completions` with `stream: true`; yields the assistant's content (and tool-call pieces) as it arrives. */
  streamChat(req: ChatRequest | AgentChatRequest, signal?: AbortSignal): AsyncIterable<ChatDelta> {
    return this.stream("/chat/completions", req, req.model, signal, parseChatChunk);
  }

  /** `POST /images/generations` asking for `b64_json`; returns the decoded image files. */
  generateImage(req: ImageRequest, signal?: AbortSignal): Promise<GeneratedImages> {
    return this.request(signal, req.model, this.imageTimeoutMs, async (sdk, scope) => {
      const response = await sdk
        .post("/images/generations", {
          ...this.options(scope, this.imageTimeoutMs, this.maxRetries),
          body: { ...req, response_format: "b64_json" },
        })
        .asResponse();
      const data = await readJsonBody(response, scope, this.imageTimeoutMs);
      const header = Number(response.headers.get("x-wisp-seed") ?? Number.NaN);
      return parseImages(data, decodeBase64, isSeed(header) ? header : undefined);
    });
  }

  private async request<T>(
    signal: AbortSignal | undefined,
    model: string | undefined,
    timeoutMs: number,
    run: (sdk: OpenAI, scope: RequestScope) => Promise<T>,
  ): Promise<T> {
    const sdk = this.sdk(signal);
    const scope = new RequestScope(signal);
    try {
      return await run(sdk, scope);
    } catch (error) {
      throw toWispError(error, this.errorContext(scope, model, timeoutMs));
    } finally {
      scope.dispose();
    }
  }

  private async *stream<T extends { finishReason?: string }>(
    path: string,
    req: CompletionRequest | ChatRequest | AgentChatRequest,
    model: string,
    signal: AbortSignal | undefined,
    parse: (chunk: unknown) => T | undefined,
  ): AsyncGenerator<T, void, undefined> {
    const sdk = this.sdk(signal);
    const scope = new RequestScope(signal);
    const post = (body: object) =>
      sdk.post(path, { ...this.options(scope, this.timeoutMs, 0), body: { ...body, stream: true } }).asResponse() as unknown as Promise<Response>;
    try {
      let response: Response;
      try {
        response = await post(req);
      } catch (error) {
        if (!("stream_options" in req) || !refusesStreamOptions(error)) throw error;
        // Azure OpenAI before api-version 2024-09-01-preview, and gateways like it, refuse the
        // field: the answer matters more than its token counts.
        const { stream_options: _unsupported, ...rest } = req;
        response = await post(rest);
      }
      let finished = false;
      const payloads = readSseJson(response, scope, { idleMs: this.timeoutMs, completeWithoutDone: () => finished });
      for await (const payload of payloads) {
        const delta = parse(payload);
        if (delta === undefined) continue;
        if (delta.finishReason !== undefined) finished = true;
        yield delta;
      }
    } catch (error) {
      throw toWispError(error, this.errorContext(scope, model, this.timeoutMs));
    } finally {
      scope.dispose();
    }
  }

  /**
   * Fails with the WispError a request would fail with before reaching the network (a bad base
   * URL, no key, a key that cannot be sent), so that a command can say so before asking for input.
   */
  checkReady(): void {
    this.ready();
  }

  private ready(): { url: string; query: Record<string, string>; apiKey: string } {
    if ("problem" in this.endpoint) throw new WispError("unreachable", this.endpoint.problem);
    if (this.apiKey === undefined) {
      throw new WispError("no-key", 'No API key is set. Run "Wisp: Set API Key" or set the WISP_API_KEY environment variable.');
    }
    if (!/^[\x21-\x7e]+$/.test(this.apiKey)) {
      throw new WispError("bad-key", 'The API key contains spaces or characters that cannot be sent. Set it again with "Wisp: Set API Key".');
    }
    return { url: this.endpoint.url, query: this.endpoint.query, apiKey: this.apiKey };
  }

  /** Checks what can be checked before any request: the URL, the key, a signal already aborted. */
  private sdk(signal: AbortSignal | undefined): OpenAI {
    if (signal?.aborted && !("problem" in this.endpoint)) throw new WispError("cancelled", "The request was cancelled.");
    const { url, query, apiKey } = this.ready();
    return new WispSdk({
      apiKey,
      baseURL: url,
      // The SDK appends each path to baseURL: a query left in it would end up before the path.
      defaultQuery: query,
      // Explicit nulls keep OPENAI_* variables of the editor's environment out of Wisp's requests.
      organization: null,
      project: null,
      adminAPIKey: null,
      webhookSecret: null,
      // The SDK's logs can include request details; Wisp logs through its own redacting logger.
      logLevel: "off",
      // A redirect followed turns a POST into a GET (301, 302) and drops the key on another
      // origin (http to https): the server's 404 or 401 would be misread. It is reported instead.
      fetchOptions: { redirect: "manual" },
    });
  }

  /** Per-request SDK options: the scope's signal, and this call's timeout and retries. */
  private options(scope: RequestScope, timeoutMs: number, maxRetries: number) {
    return { signal: scope.signal, timeout: timeoutMs, maxRetries };
  }

  private errorContext(scope: RequestScope, model: string | undefined, timeoutMs: number): ErrorContext {
    return {
      baseUrl: this.endpoint.display,
      apiKey: this.apiKey,
      timeoutMs,
      cancelled: scope.cancelledByCaller,
      timedOut: scope.timedOut,
      ...(model === undefined ? {} : { model }),
    };
  }
}

function decodeBase64(b64: string): Uint8Array {
  const bytes = Buffer.from(b64, "base64");
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
