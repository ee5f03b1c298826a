import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** One scripted answer: exact text streamed in token-sized chunks, or an OpenAI-shaped error. */
export interface ScriptedAnswer {
  readonly text?: string;
  /** Tool calls streamed after the text (agent mode), their arguments in several pieces; finish_reason "tool_calls". */
  readonly toolCalls?: readonly ScriptedToolCall[];
  /** Streaming pace (default: as fast as the socket takes it). */
  readonly tokensPerSecond?: number;
  /** The stream waits for this after the text, before it ends: the test decides when the answer is over. */
  readonly endAfter?: Promise<unknown>;
  /** The stream's finish_reason (default: "tool_calls" with tool calls, else "stop"): "length" for an answer cut at max_tokens. */
  readonly finishReason?: string;
  readonly error?: { readonly status: number; readonly message: string; readonly code?: string; readonly type?: string };
}

export interface ScriptedChatServer {
  /** OpenAI-style base URL, ending in /v1. */
  readonly baseUrl: string;
  readonly key: string;
  /** Bodies of the chat requests received, in order. */
  readonly chatRequests: Record<string, unknown>[];
  /** The Authorization header of every request received, in order ("" when none). */
  readonly authorizations: readonly string[];
  /** Answers for the next chat requests, in order; afterwards each request gets `fallback`. */
  queue(...answers: ScriptedAnswer[]): void;
  /** Drops the answers not asked for yet. */
  clearQueue(): void;
  /** Holds the next /v1/models requests until `release` (a client's model list loading while the test acts); `arrived` once one came. */
  holdModels(): { readonly arrived: Promise<void>; release(): void };
  /** Chat requests whose client went away before the answer ended. */
  readonly aborted: number;
  /**
   * Per chat request, in order (performance.now()): when its body had arrived and when its answer's
   * stream ended, so a benchmark can tell the client's time between answers from the model's.
   */
  readonly timeline: readonly { readonly receivedAt: number; readonly answeredAt?: number }[];
  close(): Promise<void>;
}

/**
 * A real HTTP server that speaks the OpenAI chat API with answers the test scripts: the exact
 * text, streamed as `chat.completion.chunk` events with usage, or an error. The extension and
 * the webview under test are the real ones; only the model is replaced by a script.
 */
export async function startScriptedChatServer(options: { key: string; models?: { id: string; context_length?: number; kind?: string }[]; fallback?: ScriptedAnswer }): Promise<ScriptedChatServer> {
  const answers: ScriptedAnswer[] = [];
  const chatRequests: Record<string, unknown>[] = [];
  const authorizations: string[] = [];
  const timeline: { receivedAt: number; answeredAt?: number }[] = [];
  const sockets = new Set<Socket>();
  let aborted = 0;
  let modelsHeld: { arrived: () => void; released: Promise<void> } | undefined;
  const models = options.models ?? [{ id: "scripted-chat", context_length: 8192 }];
  const server = createServer((request, response) => void handle(request, response));
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const send = (status: number, body: unknown): void => {
      response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    };
    authorizations.push(request.headers.authorization ?? "");
    const body = await readBody(request);
    if (request.headers.authorization !== `Bearer ${options.key}`) {
      return send(401, { error: { message: "Incorrect API key provided.", type: "invalid_request_error", param: null, code: "invalid_api_key" } });
    }
    if (request.method === "GET" && request.url === "/v1/models") {
      modelsHeld?.arrived();
      await modelsHeld?.released;
      return send(200, { object: "list", data: models.map((m) => ({ object: "model", created: 1_700_000_000, owned_by: "scripted", ...m })) });
    }
    if (request.method !== "POST" || request.url !== "/v1/chat/completions") {
      return send(404, { error: { message: `Unknown route ${request.method} ${request.url}`, type: "invalid_request_error", param: null, code: null } });
    }
    const times: { receivedAt: number; answeredAt?: number } = { receivedAt: performance.now() };
    timeline.push(times);
    response.on("finish", () => (times.answeredAt = performance.now()));
    const parsed = JSON.parse(body) as Record<string, unknown>;
    chatRequests.push(parsed);
    const answer = answers.shift() ?? options.fallback ?? { text: "ok" };
    if (answer.error) {
      const { status, message, code = null, type = "invalid_request_error" } = answer.error;
      return send(status, { error: { message, type, param: null, code } });
    }
    await streamAnswer(response, String(parsed.model), answer, () => aborted++);
  }

  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    key: options.key,
    chatRequests,
    authorizations,
    timeline,
    queue: (...next) => answers.push(...next),
    clearQueue: () => answers.splice(0),
    holdModels: () => {
      let arrived = () => {};
      let release = () => {};
      const came = new Promise<void>((done) => (arrived = done));
      modelsHeld = { arrived, released: new Promise<void>((done) => (release = done)) };
      const held = modelsHeld;
      return {
        arrived: came,
        release: () => {
          if (modelsHeld === held) modelsHeld = undefined;
          release();
        },
      };
    },
    get aborted() {
      return aborted;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

export interface ScriptedToolCall {
  readonly name: string;
  /** An object is sent as its JSON; a string as it is (to script malformed arguments). */
  readonly arguments: Record<string, unknown> | string;
  readonly id?: string;
}

/** Text split the way a tokenizer roughly would: words and runs of up to 4 characters. */
export function tokenPieces(text: string): string[] {
  return text.match(/\s*[^\s]{1,4}|\s+/g) ?? [];
}

/** A markdown answer of about `tokens` tokens: prose, lists and code blocks in several languages. */
export function longAnswer(tokens: number): string {
  const blocks = [
    (i: number) => `## Step ${i}\n\nThis step explains how the parser keeps **state** between calls, why \`reset()\` matters, and what to check when input ends early.\n`,
    (i: number) => "```ts\n" + `export function step${i}(input: string[]): Map<string, number> {\n  const counts = new Map<string, number>();\n  for (const word of input) counts.set(word, (counts.get(word) ?? 0) + ${i});\n  return counts;\n}\n` + "```\n",
    (i: number) => `- item ${i}: validate the input\n- item ${i + 1}: handle empty lines\n- item ${i + 2}: report errors with line numbers\n`,
    (i: number) => "```python\n" + `def step_${i}(values):\n    total = 0\n    for v in values:\n        total += v * ${i}\n    return total\n` + "```\n",
  ];
  const parts: string[] = [];
  for (let i = 0; tokenPieces(parts.join("\n")).length < tokens - 10; i++) parts.push(blocks[i % blocks.length]!(i));
  parts.push("The end of a long answer.");
  return parts.join("\n");
}

async function streamAnswer(response: ServerResponse, model: string, answer: ScriptedAnswer, onAbort: () => void): Promise<void> {
  const pieces = tokenPieces(answer.text ?? "");
  const base = { id: "chatcmpl-scripted", object: "chat.completion.chunk", created: Math.floor(Date.now() / 1000), model };
  const event = (payload: unknown) => `data: ${JSON.stringify(payload)}\n\n`;
  const chunk = (delta: Record<string, unknown>, finish: string | null) => event({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
  let closed = false;
  response.on("close", () => {
    if (!response.writableFinished) {
      closed = true;
      onAbort();
    }
  });
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  response.write(chunk({ role: "assistant", content: "" }, null));
  const interval = answer.tokensPerSecond ? 1000 / answer.tokensPerSecond : 0;
  const started = Date.now();
  for (let i = 0; i < pieces.length && !closed; i++) {
    response.write(chunk({ content: pieces[i] }, null));
    const due = started + (i + 1) * interval;
    if (interval > 0 && due > Date.now()) await new Promise((done) => setTimeout(done, due - Date.now()));
  }
  if (answer.endAfter) await answer.endAfter;
  if (closed) return;
  const calls = answer.toolCalls ?? [];
  calls.forEach((call, index) => {
    const args = typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
    const id = call.id ?? `call_${Math.random().toString(36).slice(2, 10)}`;
    response.write(chunk({ tool_calls: [{ index, id, type: "function", function: { name: call.name, arguments: "" } }] }, null));
    // Arguments arrive in pieces, as real servers stream them.
    for (let at = 0; at < args.length; at += 7) response.write(chunk({ tool_calls: [{ index, function: { arguments: args.slice(at, at + 7) } }] }, null));
  });
  response.write(chunk({}, answer.finishReason ?? (calls.length > 0 ? "tool_calls" : "stop")));
  response.write(event({ ...base, choices: [], usage: { prompt_tokens: 42, completion_tokens: pieces.length, total_tokens: 42 + pieces.length } }));
  response.end("data: [DONE]\n\n");
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", () => resolve(body));
    request.on("error", reject);
  });
}
