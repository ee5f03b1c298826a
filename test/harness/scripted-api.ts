import type { ServerResponse } from "node:http";
import { completionChunk, errorBody, LoopbackApi, sendJson, sseText, startSse, type SeenRequest } from "./loopback-api";

/** A POST /v1/completions body as the scripted server parsed it. */
export interface CompletionBody {
  model: string;
  prompt: string;
  suffix?: string;
  max_tokens?: number;
  stream?: boolean;
  stop?: string | string[];
  [field: string]: unknown;
}

/** One POST /v1/completions received. */
export interface ScriptedCompletion {
  readonly body: CompletionBody;
  /** Date.now() when it arrived. */
  readonly at: number;
  /** max_tokens 0: evaluates the prompt, generates nothing. */
  readonly warmUp: boolean;
  /** Streamed: the pieces written, and whether the client closed the connection before the last. */
  readonly stream: { sent: number; cut: boolean };
}

/**
 * What the script answers: the whole text, or its streamed pieces with a pause before each. With
 * `holdAfter`, the stream sends that many pieces, then nothing until the client closes it (or 10 s
 * pass, then the rest): a test then sees whether the client stopped on what it had, whatever its speed.
 */
export type ScriptedAnswer = string | { chunks: readonly string[]; delayMs?: number; holdAfter?: number };

/** How long a held stream waits for the client to close it before it sends the rest. */
const holdMs = 10_000;

export type CompletionScript = (body: CompletionBody) => ScriptedAnswer;

/**
 * How completions fail while a fault is set: an HTTP error (OpenAI's error body, and Retry-After
 * when given), a stream of events that are not JSON, or a stream that stops sending mid-answer.
 */
export type ScriptedFault = { status: number; retryAfterSeconds?: number } | "malformed-stream" | "stall-mid-stream";

export interface ScriptedApiOptions {
  /** The one accepted key; any other gets OpenAI's 401. */
  key: string;
  models: readonly string[];
  /** Answers /v1/completions (default: empty text). */
  complete?: CompletionScript;
  /** How long GET /v1/models takes to answer (default: at once): a slow server. */
  modelsDelayMs?: number;
}

/**
 * An OpenAI-style API on 127.0.0.1 that answers exactly what a test scripts: `GET /v1/models`, and
 * `POST /v1/completions` (streamed or not) with the script's text; a request with `max_tokens: 0`
 * (a warm-up) gets empty text without asking the script. It records every request, so tests see
 * what the real client sent. The narrow seam for the extension's behaviour tests: everything on
 * the other side of HTTP is real.
 */
export class ScriptedApi {
  /** POST /v1/completions received, in order (warm-ups included). */
  readonly completions: ScriptedCompletion[] = [];
  private script: CompletionScript;
  private warmUpFailure: number | undefined;
  private fault: ScriptedFault | undefined;
  private readonly stalled = new Set<ServerResponse>();

  private constructor(
    private readonly api: LoopbackApi,
    private readonly options: ScriptedApiOptions,
  ) {
    this.script = options.complete ?? (() => "");
    api.handle((req, res) => this.answer(req, res));
  }

  static async start(options: ScriptedApiOptions): Promise<ScriptedApi> {
    return new ScriptedApi(await LoopbackApi.start(), options);
  }

  /** OpenAI-style base URL, ending in /v1. */
  get baseUrl(): string {
    return this.api.baseUrl;
  }

  /** Authorization headers of every request received, in order. */
  get authorizations(): (string | undefined)[] {
    return this.api.requests.map((r) => r.headers.authorization);
  }

  get requests(): readonly SeenRequest[] {
    return this.api.requests;
  }

  /** Completions that asked for text (warm-ups left out). */
  get textRequests(): ScriptedCompletion[] {
    return this.completions.filter((c) => !c.warmUp);
  }

  get warmUps(): ScriptedCompletion[] {
    return this.completions.filter((c) => c.warmUp);
  }

  /** Stalled streams ("stall-mid-stream") the client has not closed yet. */
  get stalledStreams(): number {
    return this.stalled.size;
  }

  /** Replaces the completions script. */
  answerWith(script: CompletionScript): void {
    this.script = script;
  }

  /** Answers warm-ups (max_tokens 0) with this HTTP status and an OpenAI-style error from now on (undefined: succeed). */
  failWarmUpsWith(status: number | undefined): void {
    this.warmUpFailure = status;
  }

  /** Fails every completion (warm-ups too) this way from now on; undefined: answer again. */
  failWith(fault: ScriptedFault | undefined): void {
    this.fault = fault;
  }

  /** Stops listening (connections refused) until `comeBack()`. */
  goDown(): Promise<void> {
    return this.api.close();
  }

  comeBack(): Promise<void> {
    return this.api.reopen();
  }

  close(): Promise<void> {
    return this.api.close();
  }

  private async answer(req: SeenRequest, res: ServerResponse): Promise<void> {
    if (req.headers.authorization !== `Bearer ${this.options.key}`) {
      return sendJson(res, 401, errorBody("Incorrect API key provided.", "invalid_request_error", "invalid_api_key"));
    }
    if (req.method === "GET" && req.path === "/v1/models") {
      if (this.options.modelsDelayMs) await new Promise((done) => setTimeout(done, this.options.modelsDelayMs));
      const data = this.options.models.map((id) => ({ id, object: "model", created: 1_700_000_000, owned_by: "wisp-test" }));
      return sendJson(res, 200, { object: "list", data });
    }
    if (req.method === "POST" && req.path === "/v1/completions") {
      const body = JSON.parse(req.body) as CompletionBody;
      const stream = { sent: 0, cut: false };
      this.completions.push({ body, at: req.at, warmUp: body.max_tokens === 0, stream });
      if (this.fault === "stall-mid-stream") {
        this.stalled.add(res);
        res.once("close", () => this.stalled.delete(res));
      }
      if (this.fault !== undefined) return failCompletion(res, this.fault);
      if (body.max_tokens === 0 && this.warmUpFailure !== undefined) return failCompletion(res, { status: this.warmUpFailure });
      const scripted = body.max_tokens === 0 ? "" : this.script(body);
      const answer = typeof scripted === "string" ? { chunks: [scripted] } : scripted;
      if (body.stream !== true) {
        const text = answer.chunks.join("");
        return sendJson(res, 200, { id: "cmpl-1", object: "text_completion", created: 1, model: body.model, choices: [{ text, index: 0, logprobs: null, finish_reason: "stop" }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } });
      }
      startSse(res);
      res.socket?.setNoDelay(true);
      let closed = false;
      res.on("close", () => (closed = true));
      for (const chunk of answer.chunks) {
        if (answer.delayMs) await new Promise((done) => setTimeout(done, answer.delayMs));
        if (stream.sent === answer.holdAfter && !closed) await new Promise((done) => (res.once("close", done), setTimeout(done, holdMs)));
        if (closed) {
          stream.cut = true;
          return;
        }
        res.write(sseText([completionChunk(chunk)], "\n", false));
        stream.sent++;
      }
      res.end(sseText([completionChunk("", "stop")]));
      return;
    }
    sendJson(res, 404, errorBody(`Unknown route ${req.method} ${req.path}`, "invalid_request_error"));
  }
}

function failCompletion(res: ServerResponse, fault: ScriptedFault): void {
  if (typeof fault === "object") {
    const headers: Record<string, string> = fault.retryAfterSeconds === undefined ? {} : { "retry-after": String(fault.retryAfterSeconds) };
    const body = fault.status === 429
      ? errorBody("Rate limit reached for requests.", "requests", "rate_limit_exceeded")
      : errorBody("The server had an error while processing your request.", "server_error");
    return sendJson(res, fault.status, body, headers);
  }
  startSse(res);
  res.write(sseText([completionChunk("const")], "\n", false));
  // "stall-mid-stream" leaves the stream open here: the client's idle timer has to end it.
  if (fault === "malformed-stream") res.end("data: {\"choices\": [{\"text\": \n\ndata: <html>502 Bad Gateway</html>\n\n");
}
