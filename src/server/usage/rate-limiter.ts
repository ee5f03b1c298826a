// Per-key limits over a sliding minute: requests (counted as they arrive) and tokens (counted as
// generations report them). A key over either gets a 429 with Retry-After: the seconds until
// enough of its last minute has passed for the request to be admitted. The windows are kept here
// in memory (one process), or in the database that replicas share (store/postgres).
import type { FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "../errors";
import type { RateLimit } from "../upstreams/upstream-config";

const MINUTE_MS = 60_000;

interface Spending {
  /** Arrival times of admitted requests, oldest first. */
  requests: number[];
  /** Tokens as reported, oldest first. */
  tokens: { t: number; n: number }[];
}

/** Why a request is not admitted now, and when to try again. */
export interface RateRefusal {
  retryAfterSeconds: number;
  reason: string;
}

/** Where each key's last minute is kept. */
export interface RateWindows {
  readonly enabled: boolean;
  /** Admits a request of `key` (and counts it), or says in how many seconds to retry. */
  admit(key: string): RateRefusal | undefined | Promise<RateRefusal | undefined>;
  /** A generation of `key` reported its tokens. */
  spent(key: string, tokens: number): void;
}

/** The windows in this process's memory. */
export class RateLimiter implements RateWindows {
  private readonly keys = new Map<string, Spending>();

  // A steady clock: the time of day jumps (NTP, a laptop waking), and a minute kept on it would
  // hold a key at its limit for as long as the clock went back, or lift the limit when it went on.
  constructor(private readonly limit: RateLimit, private readonly now: () => number = () => performance.now()) {}

  get enabled(): boolean {
    return this.limit.requestsPerMinute > 0 || this.limit.tokensPerMinute > 0;
  }

  /** Admits a request of `key` (and counts it), or says in how many seconds to retry. */
  admit(key: string): RateRefusal | undefined {
    const now = this.now();
    const spending = this.spending(key, now);
    const { requestsPerMinute, tokensPerMinute } = this.limit;
    if (requestsPerMinute > 0 && spending.requests.length >= requestsPerMinute) {
      const freeAt = spending.requests[spending.requests.length - requestsPerMinute]! + MINUTE_MS;
      return { retryAfterSeconds: seconds(freeAt - now), reason: `${requestsPerMinute} requests per minute` };
    }
    if (tokensPerMinute > 0) {
      let total = spending.tokens.reduce((sum, s) => sum + s.n, 0);
      if (total >= tokensPerMinute) {
        // The time the oldest spendings leave the window and take the total under the limit.
        let freeAt = now;
        for (const s of spending.tokens) {
          total -= s.n;
          freeAt = s.t + MINUTE_MS;
          if (total < tokensPerMinute) break;
        }
        return { retryAfterSeconds: seconds(freeAt - now), reason: `${tokensPerMinute} tokens per minute` };
      }
    }
    spending.requests.push(now);
    return undefined;
  }

  /** A generation of `key` reported its tokens. */
  spent(key: string, tokens: number): void {
    if (this.limit.tokensPerMinute > 0 && tokens > 0) this.spending(key, this.now()).tokens.push({ t: this.now(), n: tokens });
  }

  private spending(key: string, now: number): Spending {
    let spending = this.keys.get(key);
    if (!spending) this.keys.set(key, (spending = { requests: [], tokens: [] }));
    const since = now - MINUTE_MS;
    while (spending.requests.length > 0 && spending.requests[0]! <= since) spending.requests.shift();
    while (spending.tokens.length > 0 && spending.tokens[0]!.t <= since) spending.tokens.shift();
    return spending;
  }
}

/** Retry-After for a wait of `ms`: whole seconds, at least 1. */
export const seconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

/** onRequest hook (after authentication) for the generation routes: POSTs only. */
export function rateLimitHook(windows: RateWindows, onRefused: () => void = () => undefined) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (!windows.enabled || request.method !== "POST" || request.wispKey === null) return;
    const refused = await windows.admit(request.wispKey.id);
    if (!refused) return;
    onRefused();
    reply.header("retry-after", String(refused.retryAfterSeconds));
    throw new ApiError(429, `rate limit of key ${request.wispKey.id} reached (${refused.reason}): retry in ${refused.retryAfterSeconds} s`, "rate_limit_error", null, "rate_limit_exceeded");
  };
}
