// When to warm the server's prompt cache (see warm-up.ts) as the user moves about: where they
// settle after an editor becomes active, or after the cursor jumps far without an edit. Typing is no
// move: the completion a keystroke asks for evaluates that prompt itself, so a keystroke also drops
// a warm-up still waiting to settle (sent after the completion, it would only be one more request).
import type { Clock } from "../base/clock";

/** Where an editor's cursor is, in which document, at which edit version. */
export interface EditorPlace<D extends object> {
  readonly document: D;
  readonly line: number;
  readonly version: number;
}

export interface WarmUpScheduleOptions {
  /** Switching through tabs or scrolling with the cursor: warm where the user settles. */
  readonly settleMs?: number;
  /** A cursor jump at least this many lines long makes a new prompt worth warming. */
  readonly farLines?: number;
}

export class WarmUpSchedule<E, D extends object> {
  private waiting: AbortController | undefined;
  /** Each document's cursor line when a warm-up was last planned or sent there, and its version then. */
  private readonly seen = new WeakMap<D, { line: number; version: number }>();
  private readonly settleMs: number;
  private readonly farLines: number;

  constructor(
    private readonly clock: Clock,
    private readonly place: (editor: E) => EditorPlace<D>,
    private readonly warm: (editor: E) => void,
    options: WarmUpScheduleOptions = {},
  ) {
    this.settleMs = options.settleMs ?? 300;
    this.farLines = options.farLines ?? 40;
  }

  /** An editor became active (undefined: none, or one not to warm). */
  activated(editor: E | undefined): void {
    this.schedule(editor);
  }

  /** The active editor's cursor moved (by a jump, or by typing). */
  moved(editor: E): void {
    const { document, line, version } = this.place(editor);
    const last = this.seen.get(document);
    if (last && last.version !== version) {
      this.seen.set(document, { line, version });
      this.cancel();
    } else if (!last || Math.abs(line - last.line) >= this.farLines) {
      this.schedule(editor);
    }
  }

  dispose(): void {
    this.cancel();
  }

  private schedule(editor: E | undefined): void {
    this.cancel();
    if (editor === undefined) return;
    this.remember(editor);
    const waiting = new AbortController();
    this.waiting = waiting;
    this.clock.sleep(this.settleMs, waiting.signal).then(
      () => {
        if (this.waiting !== waiting) return;
        this.waiting = undefined;
        this.remember(editor);
        this.warm(editor);
      },
      () => undefined, // cancelled
    );
  }

  private remember(editor: E): void {
    const { document, line, version } = this.place(editor);
    this.seen.set(document, { line, version });
  }

  private cancel(): void {
    this.waiting?.abort();
    this.waiting = undefined;
  }
}
