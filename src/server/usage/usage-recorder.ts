// Counts what each API key spends: generations report their tokens and images as they finish
// (streams too, or when the client went away mid-stream); every other authenticated /v1 request
// (listing models, a rejected body) is counted as its response is sent. (Not on the socket's
// close: a client that leaves mid-stream closes it before its generation has stopped and said
// how many tokens it made.) A record is kept before the end of the answer goes out, so an answer
// a client has whole is counted even if the server dies a moment later.
import type { FastifyReply, FastifyRequest } from "fastify";
import type { UsageEvent } from "../../core/usage/usage-rollup";
import type { KeyInfo } from "../auth/key-records";

declare module "fastify" {
  interface FastifyRequest {
    /** The API key that authenticated this request (set by the /v1 authenticator). */
    wispKey: KeyInfo | null;
    /** Whether a route already reported this request's usage. */
    wispUsageReported: boolean;
  }
}

/**
 * One served request as it is recorded: its id (the request's, sent as x-wisp-request-id) and what
 * it used. Its `t` is this process's clock, which the files store keeps (one process, one clock);
 * the database stamps its own (replicas' clocks may differ).
 */
export interface RecordedUsage extends UsageEvent {
  readonly id: string;
}

/** Where usage records go. */
export interface UsageSink {
  /**
   * Keeps one served request. Resolves once it is stored, or queued safely when the store cannot
   * take it now (a database outage): never rejects, never waits on an outage.
   */
  record(event: RecordedUsage): Promise<void>;
}

export interface ServedUsage {
  model: string;
  promptTokens?: number;
  completionTokens?: number;
  images?: number;
}

export interface UsageRecorderOptions {
  now?: () => number;
  /** Told each key's tokens as they are counted (the rate limiter). */
  onTokens?: (key: string, tokens: number) => void;
  /** Told every generation's usage (the metrics). */
  onServed?: (request: FastifyRequest, served: ServedUsage) => void;
}

export class UsageRecorder {
  private readonly now: () => number;
  private readonly onTokens: (key: string, tokens: number) => void;
  private readonly onServed: (request: FastifyRequest, served: ServedUsage) => void;
  /** Authenticated requests whose usage is not reported yet (a drain waits for them). */
  private readonly open = new WeakSet<FastifyRequest>();
  private opened = 0;
  /** Requests that reached their route, which reports them (or onSend does). */
  private readonly routed = new WeakSet<FastifyRequest>();

  constructor(
    private readonly sink: UsageSink,
    options: UsageRecorderOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.onTokens = options.onTokens ?? (() => undefined);
    this.onServed = options.onServed ?? (() => undefined);
  }

  /**
   * A generation finished (or stopped early): count its tokens and images for the request's key.
   * Routes await it before the last bytes of their answer.
   */
  served(request: FastifyRequest, served: ServedUsage, status = 200): Promise<void> {
    if (request.wispKey === null || request.wispUsageReported) return Promise.resolve();
    this.reported(request);
    this.onServed(request, served);
    this.onTokens(request.wispKey.id, (served.promptTokens ?? 0) + (served.completionTokens ?? 0));
    return this.sink.record({
      id: request.id,
      t: this.now(),
      key: request.wispKey.id,
      model: served.model,
      status,
      prompt_tokens: served.promptTokens ?? 0,
      completion_tokens: served.completionTokens ?? 0,
      images: served.images ?? 0,
    });
  }

  /** A request no route reported (listing models, an error): counted without a model. */
  private other(request: FastifyRequest, status: number): Promise<void> {
    if (request.wispKey === null || request.wispUsageReported) return Promise.resolve();
    this.reported(request);
    return this.sink.record({ id: request.id, t: this.now(), key: request.wispKey.id, model: null, status, prompt_tokens: 0, completion_tokens: 0, images: 0 });
  }

  /** Requests authenticated and not reported yet: a stream cut at the end of a drain reports as it stops. */
  get unreported(): number {
    return this.opened;
  }

  private reported(request: FastifyRequest): void {
    request.wispUsageReported = true;
    if (this.open.delete(request)) this.opened--;
  }

  /** onRequest hook for the /v1 scope, after authentication: the request's usage is to come. */
  readonly begin = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (request.wispKey === null || this.open.has(request)) return;
    // Its client left while the key was checked: closed() came too early to count it.
    if (reply.raw.destroyed) return this.other(request, 499);
    this.open.add(request);
    this.opened++;
  };

  /** preValidation hook for the /v1 scope (before the routes' own, which forward to upstreams): the body is in, and from here the route reports the request, or onSend does. */
  readonly route = async (request: FastifyRequest): Promise<void> => {
    this.routed.add(request);
  };

  /**
   * The request's connection closed. One that never reached its route (its client left while it
   * waited for its key check, its admission or its body) is counted now, 499: no hook runs for it, and a
   * drain would wait for it and call it lost. A routed one is left to its route, which may still
   * be stopping its generation.
   */
  closed(request: FastifyRequest): void {
    if (!this.routed.has(request)) void this.other(request, 499);
  }

  /** onSend hook for the /v1 scope: recorded before the answer goes out. */
  readonly hook = async (request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    await this.other(request, reply.statusCode);
    return payload;
  };

  /** onResponse hook for the /v1 scope: answers sent past onSend (taken over by a route) that reported nothing. */
  readonly lateHook = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    await this.other(request, reply.statusCode);
  };
}
