// Whether the database answers. A query that fails because the database is away marks it down;
// while it is down, requests skip it (keys come from the cache, usage waits in a buffer) and it is
// tried again every `probeMs` until it answers, when what waited is written.
import type { StoreMetrics } from "../../metrics/server-metrics";
import { isBusy, isUnavailable } from "./pg-errors";

export class DatabaseHealth {
  up = true;
  /** Date.now() when it went down. */
  downSince: number | undefined;
  lastError: string | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;
  private readonly backUp: (() => void)[] = [];

  constructor(
    private readonly probe: () => Promise<unknown>,
    private readonly metrics: StoreMetrics,
    private readonly log: (message: string) => void,
    private readonly probeMs = 500,
  ) {}

  /** Runs `then` each time the database answers again after an outage. */
  onBackUp(then: () => void): void {
    this.backUp.push(then);
  }

  /** What a failed operation met, for its error message: the database away, or too busy now. */
  get condition(): "unavailable" | "busy" {
    return this.up ? "busy" : "unavailable";
  }

  /**
   * A database operation failed: counts it, and says whether the database is away or busy (true:
   * the caller falls back) or the operation itself is wrong (false: the caller throws). Only away
   * marks it down: busy is this operation's alone.
   */
  failed(error: unknown, operation: string): boolean {
    this.metrics.databaseError(operation);
    if (isBusy(error)) return true;
    if (!isUnavailable(error)) return false;
    this.down((error as Error).message ?? String(error));
    return true;
  }

  private down(reason: string): void {
    this.lastError = reason;
    if (!this.up || this.closed) return;
    this.up = false;
    this.downSince = Date.now();
    this.log(`database unavailable (${reason}): serving keys from the cache, keeping usage records until it is back`);
    this.schedule();
  }

  private schedule(): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      this.probe().then(
        () => {
          if (this.closed) return;
          this.log(`database available again after ${((Date.now() - this.downSince!) / 1000).toFixed(1)} s`);
          this.up = true;
          this.downSince = undefined;
          for (const then of this.backUp) then();
        },
        (error: unknown) => {
          this.lastError = (error as Error).message;
          this.schedule();
        },
      );
    }, this.probeMs);
    this.timer.unref();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }
}
