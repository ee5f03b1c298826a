import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** One request as the server saw it. */
export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Date.now() when its body had arrived. */
  at: number;
  /** Resolves when the client's connection for this request closes. */
  closed: Promise<void>;
}

export type Handler = (req: SeenRequest, res: ServerResponse) => void | Promise<void>;

/**
 * A real HTTP server on 127.0.0.1 with an ephemeral port, answering like an OpenAI-compatible API
 * as each test scripts it, and recording what the client sent.
 */
export class LoopbackApi {
  readonly requests: SeenRequest[] = [];
  private readonly sockets = new Set<Socket>();
  private handler: Handler = (_req, res) => sendJson(res, 500, { error: { message: "no handler" } });
  /** Kept once listening, so the URL stays known after close (a closed port for tests of refusal). */
  private listeningPort = 0;

  private constructor(private readonly server: Server) {
    server.on("connection", (socket) => {
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
    });
    server.on("request", (req, res) => void this.receive(req, res));
  }

  static async start(): Promise<LoopbackApi> {
    const api = new LoopbackApi(createServer());
    await new Promise<void>((resolve) => api.server.listen(0, "127.0.0.1", resolve));
    api.listeningPort = (api.server.address() as AddressInfo).port;
    return api;
  }

  get port(): number {
    return this.listeningPort;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  get last(): SeenRequest {
    const last = this.requests.at(-1);
    if (last === undefined) throw new Error("no request reached the server");
    return last;
  }

  handle(handler: Handler): void {
    this.handler = handler;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Listens again on the same port after close(): the server coming back. */
  async reopen(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(this.listeningPort, "127.0.0.1", () => {
        this.server.off("error", reject);
        resolve();
      });
    });
  }

  private async receive(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const closed = new Promise<void>((resolve) => res.on("close", resolve));
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const seen: SeenRequest = {
      method: req.method ?? "",
      path: req.url ?? "",
      headers: req.headers,
      body: Buffer.concat(chunks).toString("utf8"),
      at: Date.now(),
      closed,
    };
    this.requests.push(seen);
    await this.handler(seen, res);
  }
}

/** A port nothing listens on (taken from a server that was just closed). */
export async function refusedPort(): Promise<number> {
  const api = await LoopbackApi.start();
  const port = api.port;
  await api.close();
  return port;
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

export function errorBody(message: string, type: string, code: string | null = null) {
  return { error: { message, type, param: null, code } };
}

/** Starts an SSE response. */
export function startSse(res: ServerResponse): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  res.flushHeaders();
}

/**
 * Writes `text` one byte per write, each flushed in its own TCP segment (Nagle off, a macrotask
 * between writes), so the client sees chunks that split lines, CRLFs and multi-byte characters.
 */
export async function writeByteByByte(res: ServerResponse, text: string): Promise<void> {
  res.socket?.setNoDelay(true);
  for (const byte of Buffer.from(text, "utf8")) {
    res.write(Buffer.of(byte));
    await new Promise((resolve) => setImmediate(resolve));
  }
}

export function completionChunk(text: string, finishReason: string | null = null) {
  return {
    id: "cmpl-1",
    object: "text_completion",
    created: 1,
    model: "tiny",
    choices: [{ text, index: 0, logprobs: null, finish_reason: finishReason }],
  };
}

export function chatChunk(content: string | undefined, finishReason: string | null = null) {
  return {
    id: "chatcmpl-1",
    object: "chat.completion.chunk",
    created: 1,
    model: "tiny",
    choices: [{ index: 0, delta: content === undefined ? {} : { content }, logprobs: null, finish_reason: finishReason }],
  };
}

/** `data: ...` events with the given line ending, ending with `[DONE]` unless told otherwise. */
export function sseText(payloads: unknown[], eol = "\n", done = true): string {
  const events = payloads.map((p) => `data: ${JSON.stringify(p)}${eol}${eol}`);
  return events.join("") + (done ? `data: [DONE]${eol}${eol}` : "");
}

export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}
