// Counts what each API key spends: generations report their tokens and images as they finish
// (streams too, or when the client went away mid-stream); every other authenticated /v1 request
// (listing models, a rejected body) is counted once its response is sent. (Not on the socket's
// close: a client that leaves mid-stream closes it before its generation has stopped and said
// how many tokens it made.)
import type { FastifyReply, FastifyRequest } from "fastify";
import type { KeyInfo } from "../auth/key-store";
import type { UsageLog } from "./usage-log";

declare module "fastify" {
  interface FastifyRequest {
    /** The API key that authenticated this request (set by the /v1 authenticator). */
    wispKey: KeyInfo | null;
    /** Whether a route already reported this request's usage. */
    wispUsageReported: boolean;
  }
}

export interface ServedUsage {
  model: string;
  promptTokens?: number;
  completionTokens?: number;
  images?: number;
}

export class UsageRecorder {
  constructor(
    private readonly usage: UsageLog,
    private readonly now: () => number = Date.now,
    /** Told each key's tokens as they are counted (the rate limiter). */
    private readonly onTokens: (key: string, tokens: number) => void = () => undefined,
  ) {}

  /** A generation finished (or stopped early): count its tokens and images for the request's key. */
  served(request: FastifyRequest, served: ServedUsage, status = 200): void {
    if (request.wispKey === null || request.wispUsageReported) return;
    request.wispUsageReported = true;
    this.usage.record({
      t: this.now(),
      key: request.wispKey.id,
      model: served.model,
      status,
      prompt_tokens: served.promptTokens ?? 0,
      completion_tokens: served.completionTokens ?? 0,
      images: served.images ?? 0,
    });
    this.onTokens(request.wispKey.id, (served.promptTokens ?? 0) + (served.completionTokens ?? 0));
  }

  /** onResponse hook for the /v1 scope. */
  readonly hook = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (request.wispKey === null || request.wispUsageReported) return;
    request.wispUsageReported = true;
    this.usage.record({ t: this.now(), key: request.wispKey.id, model: null, status: reply.statusCode, prompt_tokens: 0, completion_tokens: 0, images: 0 });
  };
}
