import * as vscode from "vscode";
import { joinBlock, type BlockText } from "../../core/edit/block-text";
import { decidedLines, hunkStarts, shapeOf, shownLines, type Decision, type EditShape, type ShownLine } from "../../core/edit/hunks";
import { codeOfReply, hasCode, type CodeReader } from "../../core/edit/reply-code";
import { indentStyleOf, Reindenter, type IndentStyle } from "../../core/edit/reindent";
import { StreamingLineDiff } from "../../core/edit/streaming-diff";
import { BlockRegion } from "./block-region";
import type { DecoratedBlock } from "./edit-decorations";
import type { ReviewCopy } from "./review-copy";

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
 * accepted or rejected. The proposal is shown in the file's review copy only (see ReviewCopy): the
 * file keeps the original lines until Accept writes the result there as one edit, so a single undo
 * returns to the original, and Reject or Stop leave the file untouched.
 */
export class EditSession {
  readonly region: BlockRegion;
  readonly originalText: string;
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
    /** Where the proposal is shown, and the file it is for. */
    readonly copy: ReviewCopy,
    startLine: number,
    readonly original: BlockText,
    indent: Omit<IndentStyle, "target">,
    private readonly events: EditSessionEvents,
    /** How the received text becomes code lines: a model's reply is cleaned, chat's Apply code is taken as it is. */
    private readonly readCode: CodeReader = codeOfReply,
  ) {
    this.region = new BlockRegion(copy.document, startLine, original);
    this.originalText = joinBlock(original);
    this.indent = indentStyleOf(original.lines, indent);
    this.diff = new StreamingLineDiff(original.lines);
    this.reindenter = new Reindenter(this.indent);
    this.lines = shownLines(original.lines, this.shape, [], 0);
  }

  /** The review copy, where the proposal is shown. */
  get document(): vscode.TextDocument {
    return this.copy.document;
  }

  /** The file being edited. */
  get file(): vscode.TextDocument {
    return this.copy.file;
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

  /** The file's text as the hunks decided so far make it (for the diff editor's left side). */
  decidedText(): string {
    return this.textWith(this.decisions);
  }

  /** The file's text if every undecided hunk is accepted too (for the diff editor's right side). */
  proposedText(): string {
    return this.textWith(this.decisions.map((d) => (d === "rejected" ? d : "accepted")));
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
    // A streaming render still under way would show the review's controls over its own lines: the
    // review starts once it is drawn, so its controls come with the review's lines.
    await this.rendering;
    if ((this.current as EditState) !== "streaming") return;
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

  /** Stops the answer and closes the copy: the file is as it was. */
  async cancel(end: EditEnd = "cancelled"): Promise<EditEnd> {
    this.controller.abort();
    if (this.current === "ended") return end;
    this.current = "ended";
    await this.rendering;
    this.lines = this.original.lines.map((text) => ({ text, kind: "same" }));
    this.events.changed(this);
    await this.copy.close();
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
    await this.copy.idle();
    const expected = this.region.documentWith(this.originalText);
    const done = await this.copy.write(this.region.startLine, this.original, expected, finalText, final.length);
    this.lines = final.map((text) => ({ text, kind: "same" }));
    this.events.changed(this);
    await this.copy.close();
    if (!done) throw new Error("The file changed outside the edit, or did not take the change (is it still open and writable?): it is left as it was.");
    return "accepted";
  }

  /** The copy's text with the edited lines as `decisions` make them (pending ones as the original). */
  private textWith(decisions: readonly Decision[]): string {
    return this.region.documentWith(joinBlock({ ...this.original, lines: decidedLines(this.original.lines, this.shape, decisions) }));
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
    const text = this.copy.tidy(joinBlock({ ...this.original, lines: lines.map((l) => l.text) }));
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
