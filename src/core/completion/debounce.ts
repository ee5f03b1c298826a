import type { Clock } from "./clock";

export interface DebounceOptions {
  /** Gaps longer than this are pauses, not typing, and do not count towards the typing speed. */
  readonly pauseMs: number;
  /** How much longer than a typical gap between keystrokes to wait. */
  readonly factor: number;
  /** The wait never exceeds this multiple of the configured debounce. */
  readonly maxFactor: number;
}

const defaults: DebounceOptions = { pauseMs: 1000, factor: 1.3, maxFactor: 2 };

/**
 * Waits before a request, on the caller's cancellation signal (no timer of its own survives a
 * cancelled call). The wait adapts to typing speed: a user who types a key every 180 ms with a
 * 120 ms debounce would otherwise send a request on every key; the wait grows to 1.3x their
 * usual gap (at most twice the debounce), so requests go out in real pauses.
 */
export class AdaptiveDebounce {
  private lastKeyAt: number | undefined;
  private typicalGap: number | undefined;
  private readonly options: DebounceOptions;

  constructor(
    private readonly clock: Clock,
    options: Partial<DebounceOptions> = {},
  ) {
    this.options = { ...defaults, ...options };
  }

  /** Records a keystroke (an automatic trigger) at the current time. */
  keystroke(): void {
    const now = this.clock.now();
    if (this.lastKeyAt !== undefined) {
      const gap = now - this.lastKeyAt;
      if (gap < this.options.pauseMs) {
        // Exponential average: follows a change of pace within a few keys.
        this.typicalGap = this.typicalGap === undefined ? gap : 0.7 * this.typicalGap + 0.3 * gap;
      }
    }
    this.lastKeyAt = now;
  }

  /**
   * The wait for a configured debounce of `baseMs`, given the typing speed seen so far. Where a
   * pause is likely (`atBoundary`: a new line, the end of a statement) it is never stretched,
   * so ghost text comes as early as configured where users stop to read it.
   */
  delayFor(baseMs: number, atBoundary = false): number {
    if (this.typicalGap === undefined || atBoundary) return baseMs;
    return Math.min(Math.max(baseMs, this.options.factor * this.typicalGap), this.options.maxFactor * baseMs);
  }

  /**
   * Resolves true once the wait has passed since the last keystroke (time already spent, e.g. on
   * a joined request that turned out wrong, counts), false when `signal` aborts first.
   */
  async wait(baseMs: number, atBoundary: boolean, signal: AbortSignal): Promise<boolean> {
    const elapsed = this.lastKeyAt === undefined ? 0 : this.clock.now() - this.lastKeyAt;
    try {
      await this.clock.sleep(Math.max(0, this.delayFor(baseMs, atBoundary) - elapsed), signal);
      return !signal.aborted;
    } catch (error) {
      if (signal.aborted) return false;
      throw error;
    }
  }
}
