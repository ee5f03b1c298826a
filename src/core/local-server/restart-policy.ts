/**
 * Whether a local server that exited on its own is started again: at most `max` restarts within
 * `windowMs`, each after a longer pause, so that a server that keeps crashing stops being retried
 * while one that crashes once a day always comes back.
 */
export class RestartPolicy {
  private exits: number[] = [];

  constructor(readonly max = 3, private readonly windowMs = 5 * 60_000, private readonly baseDelayMs = 1000) {}

  /**
   * Records an unexpected exit at `now` (ms). Returns the restart attempt (1..max) and how long to
   * wait before it, or undefined when the budget is spent.
   */
  onExit(now: number): { attempt: number; delayMs: number } | undefined {
    this.exits = this.exits.filter((t) => now - t < this.windowMs);
    this.exits.push(now);
    const attempt = this.exits.length;
    return attempt <= this.max ? { attempt, delayMs: this.baseDelayMs * attempt } : undefined;
  }

  /** A start the user asked for gets the whole budget again. */
  reset(): void {
    this.exits = [];
  }
}
