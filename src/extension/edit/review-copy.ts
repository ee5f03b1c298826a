import * as vscode from "vscode";
import type { BlockText } from "../../core/edit/block-text";
import { applyChange, lastFirst } from "../../core/base/text-change";
import { isSaveEdit, replaceRange, trimTrailingWhitespace, type SaveRules } from "../../core/edit/save-edits";
import { showDocument } from "../notebook-cell";
import { BlockRegion } from "./block-region";
import { reviewScheme, type ReviewCopies } from "./review-copies";

/** A change of the copy outside the edited lines, with its range in the file's lines. */
export interface MirroredChange {
  readonly range: vscode.Range;
  readonly text: string;
  /** Made by a save of the copy (see isSaveEdit), not typed: held back from the file. */
  readonly saveMade?: boolean;
}

/**
 * Where an edit's proposal is shown: a copy of the file, opened in the file's place, holding the
 * proposal in the edited lines and the file's own text around them. The file never holds a
 * proposed line, so no save of it (auto-save after a delay or on focus change, Ctrl+S, Save without
 * Formatting, Save All, the prompt on close) can write one; saves of the copy go to ReviewCopies,
 * which saves the file instead. Taking the proposal out of the file around its saves
 * (onWillSaveTextDocument) could not promise that: Save without Formatting runs no save
 * participant, and putting the proposal back after each save dirties the file again, so auto-save
 * saves it again and again. What the user types in the copy outside the edited lines is made in the
 * file too, where VS Code saves it as usual. What a save of the copy changes there by the user's
 * settings (trimmed whitespace, a final newline) is held back: the file gets it only before the
 * user's next change, the way its own save would make it, so that an auto-save of a proposal never
 * changes the file. Accept writes the decided lines into the file as one edit; Reject leaves the
 * file as it was, its saved state included.
 */
export class ReviewCopy {
  private queue: Promise<unknown> = Promise.resolve();
  private applying = 0;
  /** The copy's text before its latest change event (set once it is shown): what a change removed is read here. */
  private text = "";
  /** Changes a save made outside the edited lines, not in the file yet, oldest first. */
  private held: MirroredChange[] = [];

  private constructor(
    readonly file: vscode.TextDocument,
    readonly document: vscode.TextDocument,
    private readonly copies: ReviewCopies,
  ) {}

  /** Opens a copy of `file` in the place of `editor` (its column, selection and scroll), else in the active column. */
  static async open(copies: ReviewCopies, file: vscode.TextDocument, editor: vscode.TextEditor | undefined, id: number): Promise<ReviewCopy> {
    // An untitled file's path (Untitled-1) is relative, which no file system takes: the copy's is absolute.
    const path = file.uri.path.startsWith("/") ? file.uri.path : `/${file.uri.path}`;
    const uri = vscode.Uri.from({ scheme: reviewScheme, path, query: `edit=${id}` });
    let copy: ReviewCopy | undefined;
    copies.add(uri, file.getText(), async () => copy?.saveFile());
    try {
      // A file in a preview tab is kept open, as typing in it would: the diff or another file opened in
      // preview would otherwise take the tab's place and close the file under the edit.
      const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
      if (tab?.isPreview && tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === file.uri.toString()) {
        await vscode.commands.executeCommand("workbench.action.keepEditor");
      }
      let document = await vscode.workspace.openTextDocument(uri);
      if (document.languageId !== file.languageId) document = await vscode.languages.setTextDocumentLanguage(document, file.languageId);
      copy = new ReviewCopy(file, document, copies);
      const shown = await vscode.window.showTextDocument(document, { viewColumn: editor?.viewColumn, preview: false, selection: editor?.selection });
      // A file of one line has no line break to tell the copy which one the proposal's lines take.
      if (document.eol !== file.eol) await shown.edit((edit) => edit.setEndOfLine(file.eol));
      copy.text = document.getText();
      const top = editor?.visibleRanges[0];
      if (top) shown.revealRange(top, vscode.TextEditorRevealType.AtTop);
      return copy;
    } catch (error) {
      await copy?.close();
      copies.remove(uri);
      throw error;
    }
  }

  /**
   * Which of the copy's `event` changes a save made (by their shape and the settings), in their
   * order. Every change event of the copy goes through here, so that the removed text is known.
   */
  saveMade(event: vscode.TextDocumentChangeEvent): boolean[] {
    const rules = saveRulesOf(this.document);
    const made = event.contentChanges.map(() => false);
    let text = this.text;
    for (const change of lastFirst(event.contentChanges.map((c, index) => ({ index, offset: c.rangeOffset, length: c.rangeLength, text: c.text })))) {
      made[change.index] = isSaveEdit(text, change, rules);
      text = applyChange(text, change);
    }
    this.text = text;
    return made;
  }

  /**
   * `text` (edited lines) as a save of the copy would leave it: shown so, a proposal gives auto-save
   * nothing to trim, instead of being trimmed and put back at every save while it streams.
   */
  tidy(text: string): string {
    return saveRulesOf(this.document).trimTrailingWhitespace ? trimTrailingWhitespace(text) : text;
  }

  /** Makes the changes of the copy in the file, in their order; those a save made wait for the next one the user made. */
  mirror(changes: readonly MirroredChange[]): void {
    for (const change of changes) {
      if (change.saveMade) {
        this.held.push(change);
        continue;
      }
      const due = [...this.held, change];
      this.held = [];
      for (const next of due) this.queue = this.queue.then(() => this.apply(next));
    }
  }

  /** Whether a change of the file is the copy's own (one it mirrors). */
  owns(): boolean {
    return this.applying > 0;
  }

  /** Resolves once the file has every change mirrored so far. */
  idle(): Promise<unknown> {
    return this.queue;
  }

  /**
   * Puts `text` (whole lines, `lines` of them) in the file in place of the `original` lines at
   * `startLine`, as one undo step: false when the file is not `expected` (the copy with the
   * original lines back), as when something else changed it.
   */
  async write(startLine: number, original: BlockText, expected: string, text: string, lines: number): Promise<boolean> {
    await this.idle();
    // The changes held back are the only difference the copy may have.
    if (this.file.isClosed || this.held.reduce((content, change) => replaceRange(content, change.range, change.text), this.file.getText()) !== expected) return false;
    return new BlockRegion(this.file, startLine, original).replace(text, lines, { undoStopBefore: true, undoStopAfter: true, hidden: true });
  }

  /** Closes the copy without writing it anywhere; the file takes its place in the editor again. */
  async close(): Promise<void> {
    await this.idle();
    const { document, file, copies } = this;
    copies.discard(document.uri);
    const editor = vscode.window.visibleTextEditors.find((e) => e.document === document);
    const focused = vscode.window.activeTextEditor?.document === document;
    // Saved (to nowhere now) so that closing it asks nothing.
    if (!document.isClosed && document.isDirty) await document.save();
    if (editor && !file.isClosed) await showDocument(file, { viewColumn: editor.viewColumn, preserveFocus: !focused });
    const uri = document.uri.toString();
    const tabs = vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === uri);
    await vscode.window.tabGroups.close(tabs);
    // Else when the document closes (see ReviewCopies.closed).
    if (document.isClosed) copies.remove(document.uri);
  }

  /**
   * A save of the copy saves the file, once it has the user's changes. Not an untitled file: saving
   * one asks where to put it, which auto-save of the copy would ask after every streamed line (and
   * the copy's save would wait on the answer); it is saved as it always is, by the user, after the edit.
   */
  private async saveFile(): Promise<void> {
    await this.idle();
    if (!this.file.isClosed && !this.file.isUntitled && this.file.isDirty) await this.file.save();
  }

  private async apply(change: MirroredChange): Promise<void> {
    if (this.file.isClosed) return;
    const edit = new vscode.WorkspaceEdit();
    edit.replace(this.file.uri, change.range, change.text);
    this.applying++;
    try {
      await vscode.workspace.applyEdit(edit);
    } catch {
      // Not in step any more: Accept then finds the file different and refuses.
    } finally {
      this.applying--;
    }
  }
}

function saveRulesOf(document: vscode.TextDocument): SaveRules {
  // As the save participants read them: for the copy's resource, in its language.
  const files = vscode.workspace.getConfiguration("files", document);
  return {
    trimTrailingWhitespace: files.get<boolean>("trimTrailingWhitespace") === true,
    insertFinalNewline: files.get<boolean>("insertFinalNewline") === true,
    trimFinalNewlines: files.get<boolean>("trimFinalNewlines") === true,
  };
}
