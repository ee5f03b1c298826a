// HTTP to upstream engines over kept-alive connections (a new connection per request would add
// a handshake to every first token).
import http, { type IncomingMessage } from "node:http";
import https from "node:https";

export interface UpstreamTransport {
  http: http.Agent;
  https: https.Agent;
}

export function createTransport(): UpstreamTransport {
  return { http: new http.Agent({ keepAlive: true, maxSockets: Infinity }), https: new https.Agent({ keepAlive: true, maxSockets: Infinity }) };
}

export function disposeTransport(transport: UpstreamTransport): void {
  transport.http.destroy();
  transport.https.destroy();
}

/** Where an upstream's requests go: its base URL taken apart once, not per request. */
export interface Endpoint {
  secure: boolean;
  hostname: string;
  port: number;
  /** The base URL's path (e.g. /v1), which request paths follow. */
  basePath: string;
}

export function endpointOf(baseUrl: string): Endpoint {
  const url = new URL(baseUrl);
  const secure = url.protocol === "https:";
  // An IPv6 literal comes bracketed; http.request takes it bare.
  return { secure, hostname: url.hostname.replace(/^\[(.*)\]$/, "$1"), port: Number(url.port || (secure ? 443 : 80)), basePath: url.pathname.replace(/\/+$/, "") };
}

interface Target {
  endpoint: Endpoint;
  authorization: string | undefined;
}

/** Sends a request (head and body in one write); resolves with the response as soon as its headers arrive. */
export function openUpstream(transport: UpstreamTransport, target: Target, method: string, path: string, body: string | undefined): { request: http.ClientRequest; response: Promise<IncomingMessage> } {
  const { secure, hostname, port, basePath } = target.endpoint;
  const headers: Record<string, string> = { accept: "application/json, text/event-stream" };
  if (target.authorization) headers.authorization = target.authorization;
  if (body !== undefined) {
    headers["content-type"] = "application/json";
    headers["content-length"] = String(Buffer.byteLength(body));
  }
  const request = (secure ? https : http).request({ method, hostname, port, path: basePath + path, headers, agent: secure ? transport.https : transport.http });
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    request.once("response", resolve);
    request.once("error", reject);
  });
  request.end(body);
  return { request, response };
}

/**
 * Whether a request failed only because its kept-alive connection had been closed by the upstream
 * while idle (reset on read, broken pipe on write), which says nothing about the upstream: send it
 * again. The pool may hold several such connections; each failure drops one, and a new connection
 * is never "reused", so retrying ends at a real answer or a real error.
 */
export function staleConnection(request: http.ClientRequest, error: unknown): boolean {
  return request.reusedSocket && ["ECONNRESET", "EPIPE"].includes((error as NodeJS.ErrnoException).code ?? "");
}

/** Reads a whole response body. */
export function readBody(response: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    response.on("data", (c: Buffer) => chunks.push(c));
    response.once("end", () => resolve(Buffer.concat(chunks)));
    response.once("error", reject);
    response.once("aborted", () => reject(new Error("the upstream closed the connection mid-answer")));
  });
}

/** A whole request and answer, given up after `timeoutMs`. */
export async function upstreamCall(transport: UpstreamTransport, target: Target, method: string, path: string, body: string | undefined, timeoutMs: number): Promise<{ status: number; body: Buffer }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { request, response } = openUpstream(transport, target, method, path, body);
    const timer = setTimeout(() => request.destroy(new Error(`no answer in ${timeoutMs} ms`)), deadline - Date.now());
    try {
      const res = await response;
      return { status: res.statusCode ?? 0, body: await readBody(res) };
    } catch (error) {
      if (!staleConnection(request, error)) throw error;
    } finally {
      clearTimeout(timer);
    }
  }
}
