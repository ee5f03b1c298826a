import type { Clock } from "../base/clock";

export interface DebounceOptions {
  /** Gaps longer than this are pauses, not typing, and do not count towards the typing rhythm. */
  readonly pauseMs: number;
  /** How many recent gaps describe the rhythm. */
  readonly window: number;
  /** The share of recent gaps that the wait should outlast... */
  readonly percentile: number;
  /** ...with this margin. */
  readonly margin: number;
  /** The wait never exceeds this multiple of the configured debounce. */
  readonly maxFactor: number;
  /** The wait between words, as a share of the configured debounce. */
  readonly boundaryShare: number;
}

// maxFactor 2.5: in the typing replay 2 let a slow typist's mid-word hesitations send 0.15
// requests per keystroke, 2.5 sent 0.12. boundaryShare 1/3: 40 ms at the default 120, less than
// VS Code's own 50 ms between an edit and its provider call, so between words nothing is added.
const defaults: DebounceOptions = { pauseMs: 1000, window: 32, percentile: 0.9, margin: 1.25, maxFactor: 2.5, boundaryShare: 1 / 3 };
const minSamples = 8;

/**
 * Waits before a request, on the caller's cancellation signal (no timer of its own survives a
 * cancelled call). Inside a word the wait adapts to the user's typing rhythm: it outlasts 90% of
 * their recent gaps between keys (bounded), so requests go out in real pauses rather than in the
 * ordinary hesitations of typing, which are heavy-tailed and would each cost an aborted request.
 * Between words, where people stop to think, it is short: the request goes out early and the next
 * key, if one comes, cancels it (the server keeps the prompt it evaluated for the next one).
 */
export class AdaptiveDebounce {
  private lastKeyAt: number | undefined;
  private readonly gaps: number[] = [];
  private readonly options: DebounceOptions;

  constructor(
    private readonly clock: Clock,
    options: Partial<DebounceOptions> = {},
  ) {
    this.options = { ...defaults, ...options };
  }

  /**
   * Records a keystroke (an automatic trigger), at `at` when the editor says when the text changed
   * (it asks the provider later, after its own debounce: that time counts towards the wait), else now.
   */
  keystroke(at = this.clock.now()): void {
    if (at === this.lastKeyAt) return; // asked again about the same edit
    if (this.lastKeyAt !== undefined && at - this.lastKeyAt < this.options.pauseMs && at > this.lastKeyAt) {
      this.gaps.push(at - this.lastKeyAt);
      if (this.gaps.length > this.options.window) this.gaps.shift();
    }
    this.lastKeyAt = at;
  }

  /**
   * The wait for a configured debounce of `baseMs`, given the typing rhythm seen so far. Where a
   * pause is likely (`atBoundary`: not inside a word) it is a share of it, never stretched, so
   * ghost text comes about as soon as the editor asks where users stop to think.
   */
  delayFor(baseMs: number, atBoundary = false): number {
    if (atBoundary) return Math.round(this.options.boundaryShare * baseMs);
    if (this.gaps.length < minSamples) return baseMs;
    const sorted = [...this.gaps].sort((a, b) => a - b);
    const typicalLongGap = sorted[Math.floor(this.options.percentile * (sorted.length - 1))] as number;
    return Math.min(Math.max(baseMs, this.options.margin * typicalLongGap), this.options.maxFactor * baseMs);
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
