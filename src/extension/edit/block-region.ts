import * as vscode from "vscode";
import { changedSpan, type BlockText } from "../../core/edit/block-text";

/** How a document change touched the region. */
export type RegionChange = "none" | "moved" | "inside";

/** Tries of an edit the document refused because the user changed it in the meantime. */
const editTries = 5;

/**
 * The whole lines of a document that an edit session owns: where they are now (followed through
 * the user's changes above them), and replacing their text with as small an edit as possible.
 */
export class BlockRegion {
  private start: number;
  private count: number;
  /** The session's edits under way, as the document will report them: a change matching one is the session's own. */
  private readonly ownEdits: { readonly range: vscode.Range; readonly text: string }[] = [];
  /** Whether the region's text was edited yet: the first edit starts an undo step of its own. */
  private edited = false;

  constructor(readonly document: vscode.TextDocument, startLine: number, private readonly block: Pick<BlockText, "eol" | "finalEol" | "lines">) {
    this.start = startLine;
    this.count = block.lines.length;
  }

  get startLine(): number {
    return this.start;
  }

  get lineCount(): number {
    return this.count;
  }

  /** The region's range now: from its first line's start to the next line's start (or the document's end). */
  range(): vscode.Range {
    const start = new vscode.Position(this.start, 0);
    if (this.block.finalEol || this.count === 0) return new vscode.Range(start, new vscode.Position(this.start + this.count, 0));
    return new vscode.Range(start, this.document.lineAt(this.document.lineCount - 1).range.end);
  }

  text(): string {
    return this.document.getText(this.range());
  }

  /** The document's text with `text` in place of the region's lines. */
  documentWith(text: string): string {
    const range = this.range();
    const all = this.document.getText();
    return all.slice(0, this.document.offsetAt(range.start)) + text + all.slice(this.document.offsetAt(range.end));
  }

  /**
   * Follows a change of the document: lines added or removed above move the region; a change
   * inside it that is neither the session's own edit nor one a save made (`saveMade`, by the
   * change's index) is reported. `outside` is given each change above or below the region, placed
   * as it would be were the region `block`'s lines.
   */
  follow(event: vscode.TextDocumentChangeEvent, outside?: (range: vscode.Range, text: string, index: number) => void, saveMade: readonly boolean[] = []): RegionChange {
    if (event.document !== this.document) return "none";
    let result: RegionChange = "none";
    for (const [index, change] of event.contentChanges.entries()) {
      const { start, end } = change.range;
      const delta = (change.text.match(/\n/g) ?? []).length - (end.line - start.line);
      const own = this.ownEdits.findIndex((edit) => edit.range.isEqual(change.range) && edit.text === change.text);
      if (own >= 0) {
        // The region grows or shrinks with the session's edit before that edit resolves.
        this.ownEdits.splice(own, 1);
        this.count += delta;
        continue;
      }
      // Ending at column 0 of the first line leaves that line as it was.
      const above = end.line < this.start || (end.line === this.start && end.character === 0 && start.line < this.start);
      if (above) {
        outside?.(change.range, change.text, index);
        if (delta !== 0) result = "moved";
        this.start += delta;
        continue;
      }
      const below = start.line >= this.start + this.count && (this.block.finalEol || this.count === 0);
      if (below) {
        const shift = this.block.lines.length - this.count;
        outside?.(new vscode.Range(start.translate(shift), end.translate(shift)), change.text, index);
        continue;
      }
      // Whitespace a save trimmed, a final newline it added: not typing, so the edit goes on with its lines as the session has them.
      if (saveMade[index]) {
        this.count += delta;
        continue;
      }
      return "inside";
    }
    return result;
  }

  /**
   * Puts `text` (whole lines, `lines` of them) in place of the region, in an editor showing the
   * document, where undo stops can be chosen. With no editor showing it the edit waits (false),
   * unless `hidden` says to apply it to the document anyway (the file, behind its review copy).
   * False too when the document kept changing under the edit.
   */
  async replace(text: string, lines: number, options: { undoStopBefore: boolean; undoStopAfter: boolean; hidden?: boolean }): Promise<boolean> {
    for (let tries = 0; tries < editTries; tries++) {
      const editor = vscode.window.visibleTextEditors.find((e) => e.document === this.document);
      if ((editor === undefined && !options.hidden) || this.document.isClosed) return false;
      const range = this.range();
      const span = changedSpan(this.document.getText(range), text);
      if (span === undefined) {
        this.count = lines;
        return true;
      }
      const base = this.document.offsetAt(range.start);
      const target = new vscode.Range(this.document.positionAt(base + span.start), this.document.positionAt(base + span.end));
      const own = { range: target, text: span.text };
      this.ownEdits.push(own);
      let done: boolean;
      try {
        // The session's edits then make one undo step of their own, apart from the user's typing.
        const stops = { undoStopBefore: options.undoStopBefore || !this.edited, undoStopAfter: options.undoStopAfter };
        done = editor ? await editor.edit((edit) => edit.replace(target, span.text), stops) : await this.applyHidden(target, span.text);
      } finally {
        // Not reported (the edit was refused): nothing to match any more.
        const left = this.ownEdits.indexOf(own);
        if (left >= 0) this.ownEdits.splice(left, 1);
      }
      if (done) {
        this.edited = true;
        this.count = lines;
        return true;
      }
    }
    return false;
  }

  private applyHidden(range: vscode.Range, text: string): Thenable<boolean> {
    const edit = new vscode.WorkspaceEdit();
    edit.replace(this.document.uri, range, text);
    return vscode.workspace.applyEdit(edit);
  }
}
