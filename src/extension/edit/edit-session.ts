import * as vscode from "vscode";
import { joinBlock, type BlockText } from "../../core/edit/block-text";
import { decidedLines, hunkStarts, shapeOf, shownLines, type Decision, type EditShape, type ShownLine } from "../../core/edit/hunks";
import { codeOfReply, hasCode, type CodeReader } from "../../core/edit/reply-code";
import { indentStyleOf, Reindenter, type IndentStyle } from "../../core/edit/reindent";
import { StreamingLineDiff } from "../../core/edit/streaming-diff";
import { BlockRegion } from "./block-region";
import type { DecoratedBlock } from "./edit-decorations";
import { SavedState } from "./saved-state";

export type EditState = "streaming" | "reviewing" | "ended";

/** How a session ended: accepted (some or all hunks), rejected or cancelled (original text back), or failed. */
export type EditEnd = "accepted" | "rejected" | "cancelled" | "failed" | "unchanged";

export interface EditSessionEvents {
  /** Lines, hunks, decisions or state changed: redraw decorations, CodeLens, context keys, the diff. */
  changed(session: EditSession): void;
  /** Milliseconds from a line's arrival to the editor showing it. */
  shown(latencyMs: number): void;
}

export class NoCodeError extends Error {
  readonly kind = "no-code";
  constructor() {
    super("The model's answer had no code to put in. Try again, or say more precisely what to change.");
  }
}

/**
 * One edit of a block: the proposal streams in as lines below the removed ones, then each hunk is
 * accepted or rejected. The document only ever holds the original block, the proposal being shown,
 * or the final text; rejecting puts back the original's exact text, and accepting first puts it
 * back and then writes the result as one edit, so a single undo returns to the original.
 */
export class EditSession {
  readonly region: BlockRegion;
  readonly originalText: string;
  /** The document's saved text: an end without a change undoes back to it, leaving it saved. */
  private readonly saved: SavedState;
  private current: EditState = "streaming";
  private diff: StreamingLineDiff;
  private reindenter: Reindenter;
  private readonly indent: IndentStyle;
  private reply = "";
  /** The reply's code lines shown so far, as the reply gave them. */
  private taken: string[] = [];
  private shape: EditShape = { hunks: [], segments: [] };
  private decisions: Decision[] = [];
  private lines: ShownLine[];
  private rendering: Promise<void> | undefined;
  private again = false;
  private arrivedAt: number | undefined;
  private readonly controller = new AbortController();

  constructor(
    readonly id: number,
    document: vscode.TextDocument,
    startLine: number,
    readonly original: BlockText,
    indent: Omit<IndentStyle, "target">,
    private readonly events: EditSessionEvents,
    /** How the received text becomes code lines: a model's reply is cleaned, chat's Apply code is taken as it is. */
    private readonly readCode: CodeReader = codeOfReply,
  ) {
    this.saved = new SavedState(document);
    this.region = new BlockRegion(document, startLine, original);
    this.originalText = joinBlock(original);
    this.indent = indentStyleOf(original.lines, indent);
    this.diff = new StreamingLineDiff(original.lines);
    this.reindenter = new Reindenter(this.indent);
    this.lines = shownLines(original.lines, this.shape, [], 0);
  }

  get document(): vscode.TextDocument {
    return this.region.document;
  }

  get state(): EditState {
    return this.current;
  }

  /** Aborted when the user stops the edit: the request closes with it. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get hunks(): EditShape["hunks"] {
    return this.shape.hunks;
  }

  get hunkDecisions(): readonly Decision[] {
    return this.decisions;
  }

  /** The text the editor shows for the block now. */
  get shown(): readonly ShownLine[] {
    return this.lines;
  }

  /** The first line of each undecided hunk in the document, by hunk index. */
  hunkLines(): Map<number, number> {
    const starts = hunkStarts(this.lines);
    for (const [hunk, index] of starts) starts.set(hunk, this.region.startLine + index);
    return starts;
  }

  decorated(): DecoratedBlock {
    return { startLine: this.region.startLine, lines: this.lines, streaming: this.current === "streaming" };
  }

  /** The text the hunks make if every undecided one is accepted (for the diff editor). */
  proposedText(): string {
    return joinBlock({ ...this.original, lines: decidedLines(this.original.lines, this.shape, this.decisions.map((d) => (d === "rejected" ? d : "accepted"))) });
  }

  /** Takes a piece of the answer; only complete lines are shown. */
  receive(text: string): void {
    if (this.current !== "streaming") return;
    this.reply += text;
    if (text.includes("\n")) this.take(false);
  }

  /** The answer ended: the rest of it is taken and the review starts (fails with NoCodeError). */
  async complete(): Promise<void> {
    if (this.current !== "streaming") return;
    this.take(true);
    if (!hasCode(this.taken)) throw new NoCodeError();
    this.diff.finish();
    this.shape = shapeOf(this.diff.rows);
    this.decisions = this.shape.hunks.map(() => "pending");
    this.current = "reviewing";
    await this.render();
  }

  /** Sets the decision of one hunk; the session ends when none is left undecided. */
  async decide(hunk: number, decision: "accepted" | "rejected"): Promise<EditEnd | undefined> {
    if (this.current !== "reviewing" || this.decisions[hunk] !== "pending") return undefined;
    this.decisions[hunk] = decision;
    if (this.decisions.includes("pending")) {
      // Told before the lines are redrawn: with the diff editor over the file, they wait for an editor to show it.
      this.events.changed(this);
      await this.render();
      return undefined;
    }
    return this.end();
  }

  /** Accepts (or rejects) every hunk still undecided, and ends. */
  async decideAll(decision: "accepted" | "rejected"): Promise<EditEnd> {
    if (this.current === "streaming") return this.cancel();
    if (this.current === "ended") return "unchanged";
    this.decisions = this.decisions.map((d) => (d === "pending" ? decision : d));
    return this.end();
  }

  /** Stops the answer and puts the original back. */
  async cancel(end: EditEnd = "cancelled"): Promise<EditEnd> {
    this.controller.abort();
    if (this.current === "ended") return end;
    this.current = "ended";
    await this.rendering;
    if (!(await this.saved.undoToSaved(this.textWithOriginal()))) {
      await this.region.replace(this.originalText, this.original.lines.length, { undoStopBefore: false, undoStopAfter: false, hidden: true });
    }
    this.lines = shownLines(this.original.lines, { hunks: [], segments: [] }, [], 0).map((l) => ({ ...l, kind: "same" }));
    this.events.changed(this);
    return end;
  }

  /** Draws what is due again (an editor for the document came back into view). */
  refresh(): void {
    if (this.current !== "ended") void this.render();
  }

  private async end(): Promise<EditEnd> {
    const final = decidedLines(this.original.lines, this.shape, this.decisions);
    const finalText = joinBlock({ ...this.original, lines: final });
    if (finalText === this.originalText) return this.cancel("rejected");
    this.current = "ended";
    await this.rendering;
    await this.region.replace(this.originalText, this.original.lines.length, { undoStopBefore: false, undoStopAfter: false, hidden: true });
    const done = await this.region.replace(finalText, final.length, { undoStopBefore: true, undoStopAfter: true, hidden: true });
    this.lines = final.map((text) => ({ text, kind: "same" }));
    this.events.changed(this);
    if (!done) throw new Error("The editor did not take the change (is the file still open and writable?). The original text is back.");
    return "accepted";
  }

  /** The document's text once the original block is back in place. */
  private textWithOriginal(): string {
    const range = this.region.range();
    const text = this.document.getText();
    return text.slice(0, this.document.offsetAt(range.start)) + this.originalText + text.slice(this.document.offsetAt(range.end));
  }

  private take(final: boolean): void {
    const code = this.readCode(this.reply, final);
    // A reply that turned out to be prose before a fence: what was shown is not the code, start over.
    if (this.taken.some((line, i) => code[i] !== line)) {
      this.diff = new StreamingLineDiff(this.original.lines);
      this.reindenter = new Reindenter(this.indent);
      this.taken = [];
    }
    if (code.length <= this.taken.length) return;
    this.arrivedAt ??= performance.now();
    for (const line of code.slice(this.taken.length)) this.diff.push(this.reindenter.line(line));
    this.taken = code;
    if (!final) {
      this.shape = shapeOf(this.diff.rows);
      void this.render();
    }
  }

  /** Shows the current lines; renders asked for while one runs are folded into one more. */
  private render(): Promise<void> {
    if (this.rendering) {
      this.again = true;
      return this.rendering;
    }
    this.rendering = (async () => {
      do {
        this.again = false;
        await this.renderOnce();
      } while (this.again && this.current !== "ended");
    })().finally(() => (this.rendering = undefined));
    return this.rendering;
  }

  private async renderOnce(): Promise<void> {
    if (this.current === "ended") return;
    const pendingFrom = this.current === "streaming" ? this.diff.pendingFrom : this.original.lines.length;
    const lines = shownLines(this.original.lines, this.shape, this.decisions, pendingFrom);
    const text = joinBlock({ ...this.original, lines: lines.map((l) => l.text) });
    const arrived = this.arrivedAt;
    this.arrivedAt = undefined;
    if (!(await this.region.replace(text, lines.length, { undoStopBefore: false, undoStopAfter: false }))) {
      this.arrivedAt ??= arrived;
      return;
    }
    // The session may have ended while the edit was being applied.
    if ((this.current as EditState) === "ended") return;
    this.lines = lines;
    this.events.changed(this);
    if (arrived !== undefined) this.events.shown(performance.now() - arrived);
  }
}
