import { isCancelledError } from "../base/cancellation";
import type { Clock } from "../base/clock";

export interface BackoffState {
  readonly errorKind: string;
  readonly retryInMs: number;
}

/**
 * After a failed request (server down, key rejected, rate limited), automatic completions pause
 * instead of failing on every keystroke: 2 s, doubling up to a minute, or the server's Retry-After.
 * A success or an explicit trigger resumes at once.
 */
export class ErrorBackoff {
  private until = 0;
  private delayMs = 0;
  private errorKind = "";

  constructor(
    private readonly clock: Clock,
    private readonly baseMs = 2000,
    private readonly maxMs = 60_000,
  ) {}

  /** Whether automatic requests are paused now, and why. */
  current(): BackoffState | undefined {
    const left = this.until - this.clock.now();
    return left > 0 ? { errorKind: this.errorKind, retryInMs: left } : undefined;
  }

  /** Follows a request: its failure starts or extends the pause, its success ends it. */
  async track<T>(request: Promise<T>): Promise<T> {
    try {
      const value = await request;
      this.delayMs = 0;
      this.until = 0;
      return value;
    } catch (error) {
      const kind = (error as { kind?: unknown })?.kind;
      if (!isCancelledError(error) && kind !== "cancelled") {
        const retryAfter = (error as { retryAfterMs?: unknown })?.retryAfterMs;
        this.delayMs = Math.min(this.maxMs, this.delayMs === 0 ? this.baseMs : 2 * this.delayMs);
        this.until = this.clock.now() + Math.max(this.delayMs, typeof retryAfter === "number" ? retryAfter : 0);
        this.errorKind = typeof kind === "string" ? kind : "unknown";
      }
      throw error;
    }
  }
}
