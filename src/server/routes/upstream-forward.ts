// Sends a request for an upstream model to one of its replicas and passes the answer back as it
// comes. Before any byte of an answer has reached the client, a replica that cannot be reached is
// taken out and the next one tried; once a stream has begun nothing is retried, and a cut stream
// ends with an error event. A client that leaves closes the upstream request at once.
import type { IncomingMessage } from "node:http";
import type { FastifyReply, FastifyRequest } from "fastify";
import { encodeSseEvent } from "../../core/api/sse";
import type { ServerDeps } from "../deps";
import { ApiError, errorBody, type ApiErrorType } from "../errors";
import { markFirstToken } from "../metrics/request-labels";
import { relayedUsage, type RelayedUsage } from "../upstreams/relayed-usage";
import { SseRelay } from "../upstreams/sse-relay";
import type { Upstream } from "../upstreams/upstream";
import type { UpstreamRoute } from "../upstreams/upstream-registry";
import { openUpstream, readBody, staleConnection } from "../upstreams/upstream-transport";
import { cutAt } from "../../core/base/surrogates";

/** The POST routes whose bodies name a model and may go upstream (paths under /v1). */
export type ForwardedPath = "/chat/completions" | "/completions" | "/images/generations";

interface ForwardBody {
  model?: unknown;
  stream?: unknown;
  stream_options?: { include_usage?: unknown } | null;
}

/**
 * preValidation hook for a route: a body naming an upstream model is answered from upstream
 * (before the local schema, which knows only what the local engines accept); others go on.
 */
export function upstreamForwarder(deps: ServerDeps, path: ForwardedPath) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const body = request.body as ForwardBody | undefined;
    if (typeof body?.model !== "string") return;
    const route = deps.upstreams.resolve(body.model);
    if (route) await forward(deps, request, reply, route, path, body);
  };
}

const closed = (reply: FastifyReply) => reply.raw.destroyed || reply.raw.writableEnded;

async function forward(deps: ServerDeps, request: FastifyRequest, reply: FastifyReply, route: UpstreamRoute, path: ForwardedPath, body: ForwardBody): Promise<void> {
  const streaming = body.stream === true;
  // Streams are asked for their usage (to count the key's tokens); the client gets it only if it asked.
  const clientWantsUsage = body.stream_options?.include_usage === true;
  const sent = JSON.stringify({ ...body, model: route.upstreamModel, ...(streaming ? { stream_options: { ...body.stream_options, include_usage: true } } : {}) });
  const tried = new Set<Upstream>();
  // A client gone before any answer reached it: no hook runs for the abandoned reply, so it is
  // recorded here (499, nothing used), or a drain would wait for its record.
  const gone = async () => {
    await deps.usage.served(request, { model: route.id }, 499);
    reply.hijack();
  };
  let lastFailure: { upstream: Upstream; message: string } | undefined;
  for (;;) {
    const upstream = deps.upstreams.pick(route, tried);
    if (!upstream) {
      const why = route.replicas.map((u) => `upstream ${u.name}: ${u === lastFailure?.upstream ? lastFailure.message : (u.lastError ?? "busy")}`);
      throw new ApiError(503, `no upstream serving '${route.id}' could take the request (${why.join("; ")})`, "server_error", null, "upstream_unavailable");
    }
    tried.add(upstream);
    const response = await connect(upstream, path, sent, reply);
    if (response === "client-gone") return gone();
    if (response instanceof Error) {
      lastFailure = { upstream, message: response.message };
      upstream.markDown(response.message);
      continue;
    }
    try {
      if (response.statusCode === 503 && tried.size < route.replicas.length) {
        // Overloaded: another replica may have room; nothing has been sent yet.
        lastFailure = { upstream, message: upstreamErrorMessage(await readBody(response)) };
        continue;
      }
      if ((response.statusCode ?? 500) >= 400) throw upstreamError(upstream, response.statusCode ?? 500, await readBody(response), response.headers["retry-after"]);
      request.wispUpstream = upstream.name;
      const served = (usage: RelayedUsage | undefined, status = 200, images?: number) =>
        deps.usage.served(request, { model: route.id, promptTokens: usage?.prompt_tokens, completionTokens: usage?.completion_tokens, images }, status);
      if (isEventStream(response)) await relayStream(reply, upstream, response, new SseRelay(streaming && !clientWantsUsage), served, deps.log);
      else {
        const answer = await readBody(response);
        const used = usageOf(answer);
        await served(used.usage, 200, path === "/images/generations" ? used.images : undefined);
        reply.hijack();
        reply.raw.writeHead(response.statusCode ?? 200, { "content-type": response.headers["content-type"] ?? "application/json", "x-wisp-upstream": upstream.name });
        reply.raw.end(answer);
      }
      return;
    } catch (error) {
      if (error instanceof ApiError) throw error;
      if (closed(reply)) return gone();
      // The upstream went away before its whole answer came, and the client has none of it yet.
      lastFailure = { upstream, message: (error as Error).message };
      upstream.markDown(lastFailure.message);
    } finally {
      upstream.outstanding--;
    }
  }
}

/** The upstream's response headers, an Error when it cannot be reached, or "client-gone". */
async function connect(upstream: Upstream, path: string, body: string, reply: FastifyReply): Promise<IncomingMessage | Error | "client-gone"> {
  for (;;) {
    if (closed(reply)) return "client-gone";
    const { request, response } = openUpstream(upstream.transport, upstream, "POST", path, body);
    const leave = () => {
      if (!reply.raw.writableFinished) request.destroy(new Error("the client closed the request"));
    };
    reply.raw.once("close", leave);
    upstream.outstanding++;
    try {
      const res = await response;
      res.once("close", () => reply.raw.off("close", leave));
      return res;
    } catch (error) {
      upstream.outstanding--;
      reply.raw.off("close", leave);
      if (closed(reply)) return "client-gone";
      if (staleConnection(request, error)) continue;
      return error as Error;
    }
  }
}

const isEventStream = (response: IncomingMessage) => (response.headers["content-type"] ?? "").startsWith("text/event-stream");

/** The tokens a JSON answer reports, and its `data` items (an images answer's images). */
function usageOf(answer: Buffer): { usage?: RelayedUsage; images?: number } {
  try {
    const parsed = JSON.parse(answer.toString("utf8")) as { usage?: unknown; data?: unknown };
    return { usage: relayedUsage(parsed.usage), images: Array.isArray(parsed.data) ? parsed.data.length : undefined };
  } catch {
    return {};
  }
}

/** Pipes the event stream as it arrives (pausing the upstream while the client is slow). */
function relayStream(
  reply: FastifyReply,
  upstream: Upstream,
  response: IncomingMessage,
  relay: SseRelay,
  served: (usage: RelayedUsage | undefined, status?: number) => Promise<void>,
  log: (message: string) => void,
): Promise<void> {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(response.statusCode ?? 200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive", "x-wisp-upstream": upstream.name });
  raw.flushHeaders();
  const request = reply.request;
  return new Promise((resolve) => {
    response.on("data", (chunk: Buffer) => {
      const choicesBefore = relay.choiceEvents;
      const events = relay.push(chunk);
      if (choicesBefore === 0 && relay.choiceEvents > 0) markFirstToken(request);
      if (events !== undefined && !raw.destroyed && !raw.write(events)) {
        response.pause();
        raw.once("drain", () => response.resume());
      }
    });
    response.once("close", async () => {
      // A stream that ended early has no usage from the engine: its choices so far are charged.
      const usage = { prompt_tokens: relay.usage?.prompt_tokens ?? 0, completion_tokens: relay.usage?.completion_tokens ?? relay.choiceEvents };
      try {
        await served(usage);
      } catch (error) {
        // Thrown in a close listener it would end the process: the answer still ends as it should.
        log(`usage of a stream from upstream ${upstream.name} not recorded: ${(error as Error).message}`);
      }
      if (!raw.destroyed) {
        const rest = relay.end();
        if (response.complete) raw.end(rest);
        else {
          // Cut mid-stream: nothing is retried (the client already has part of an answer).
          const error = new ApiError(502, `upstream ${upstream.name} closed the stream before it ended`, "server_error", null, "upstream_disconnected");
          raw.end(Buffer.concat([rest, Buffer.from(encodeSseEvent(JSON.stringify(errorBody(error))))]));
          upstream.markDown(error.message);
        }
      }
      resolve();
    });
  });
}

function upstreamErrorMessage(body: Buffer): string {
  const text = body.toString("utf8");
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const message = typeof parsed.error === "string" ? parsed.error : (parsed.error?.message ?? parsed.message);
    if (typeof message === "string") return message;
  } catch {
    // not JSON: its text is the message
  }
  return cutAt(text, 500) || "no message";
}

const typeForStatus = (status: number): ApiErrorType =>
  status === 401 || status === 403 ? "authentication_error" : status === 429 ? "rate_limit_error" : status >= 500 ? "server_error" : "invalid_request_error";

/** Retry-After as seconds (it may be an HTTP date); undefined when absent or unreadable. */
function retryAfterSeconds(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** The upstream's error in the OpenAI shape, its message naming the upstream, its Retry-After passed on. */
function upstreamError(upstream: Upstream, status: number, body: Buffer, retryAfter?: string): ApiError {
  let param: string | null = null;
  let code: string | null = null;
  try {
    const e = (JSON.parse(body.toString("utf8")) as { error?: { param?: unknown; code?: unknown } }).error;
    param = typeof e?.param === "string" ? e.param : null;
    code = typeof e?.code === "string" ? e.code : e?.code == null ? null : String(e.code);
  } catch {
    // not JSON: no param or code
  }
  // The upstream's own auth failing is this server's configuration, not the client's key.
  const clientStatus = status === 401 || status === 403 ? 502 : status;
  return new ApiError(clientStatus, `upstream ${upstream.name}: ${upstreamErrorMessage(body)}`, typeForStatus(clientStatus), param, code, retryAfterSeconds(retryAfter));
}
