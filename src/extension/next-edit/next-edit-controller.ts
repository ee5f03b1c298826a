import * as vscode from "vscode";
import { EditHistory, type Hunk } from "../../core/next-edit/edit-history";
import { nextEditFrom, onlyInserts, predictNextEdits, type NextEdit } from "../../core/next-edit/predict-next-edits";
import type { ModelPredictor } from "./model-predictor";
import type { NextEditDecorations } from "./next-edit-decorations";
import { setContext } from "../set-context";

/** What the editor shows of the current next edit, for tests. */
export interface NextEditView {
  readonly uri: string;
  /** 0-based line of the text it changes. */
  readonly line: number;
  readonly oldText: string;
  readonly newText: string;
  /** The hint at the end of the cursor's line. */
  readonly hint: string;
  /** Offered as ghost text (an insertion at the cursor) rather than drawn as a diff. */
  readonly ghost: boolean;
  /** From the change it follows (a keystroke, or the accepted edit before it) to being shown. */
  readonly latencyMs: number;
}

export interface NextEditProbe {
  shown(): NextEditView | undefined;
  /** How many changes were considered for a prediction: a test waits for it before asserting that nothing is shown. */
  predictions(): number;
  /** How many documents' text it keeps to follow their edits: none while it is off. */
  followed(): number;
}

/** How long a dismissed suggestion stays away. */
const rejectedForMs = 60_000;
/** Beyond this the local predictor's scans are not worth a keystroke. */
const maxChars = 400_000;
const contextKey = "wisp.nextEditShown";
/** Documents the user edits; not output channels, logs and other views that change by themselves. */
const editedSchemes = new Set(["file", "untitled", "vscode-remote", "vscode-notebook-cell"]);
/** Of those, the files on disk, the only ones a reload from disk changes. */
const diskSchemes = new Set(["file", "vscode-remote"]);

interface Shown {
  readonly editor: vscode.TextEditor;
  readonly edit: NextEdit;
  readonly range: vscode.Range;
  readonly latencyMs: number;
  /** Whether the inline suggestion was asked for since the cursor reached the edit. */
  triggered: boolean;
}

/**
 * Follows the user's edits, proposes the next one with the local predictor (then, when a model is
 * set, with the model's answer in its place), shows it, and moves
 * to it (Tab), applies it (Tab again) or drops it (Escape). Any change of the document that is not
 * an accepted suggestion replaces the suggestion with a fresh prediction; leaving the file drops it.
 * An insertion at the cursor is offered as ghost text (see `ghostText`), which VS Code's own Tab accepts.
 */
export class NextEditController implements vscode.Disposable, NextEditProbe {
  /** The open documents' text and the user's edits, kept only while on (a copy of every document, updated per keystroke). */
  private history: EditHistory | undefined;
  /** The document events it follows while on. */
  private following: vscode.Disposable | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly rejected = new Map<string, number>();
  private current: Shown | undefined;
  /** The editor whose decorations are on screen: a suggestion the user typed over stays drawn until the next one replaces it. */
  private painted: vscode.TextEditor | undefined;
  /** The context key's value as last sent, so a keystroke does not send it twice. */
  private keyShown = false;
  /** The document Wisp is editing right now: its changes are not the user's. */
  private applying: vscode.TextDocument | undefined;
  private timer: NodeJS.Timeout | undefined;
  private runs = 0;
  /** The model's request in flight: any change of a document makes its answer stale. */
  private asking: AbortController | undefined;

  constructor(
    enabled: boolean,
    private readonly decorations: NextEditDecorations,
    /** With `wisp.nextEdit.model` set, its suggestion replaces the local one when it comes. */
    private readonly model?: ModelPredictor,
  ) {
    this.setEnabled(enabled);
    this.subscriptions.push(
      vscode.window.onDidChangeActiveTextEditor((editor) => {
        if (this.current && editor?.document !== this.current.editor.document) this.clear();
      }),
      vscode.window.onDidChangeTextEditorSelection((e) => {
        if (e.textEditor === this.current?.editor) this.draw(this.current);
      }),
    );
  }

  shown(): NextEditView | undefined {
    const shown = this.current;
    if (!shown) return undefined;
    const { uri } = shown.editor.document;
    const { edit, range, latencyMs } = shown;
    return { uri: uri.toString(), line: range.start.line, oldText: edit.oldText, newText: edit.newText, hint: hintFor(shown), ghost: isGhost(shown), latencyMs };
  }

  /** The ghost text for the inline completion provider: the suggestion, when it only inserts at `position` of `document`. */
  ghostText(document: vscode.TextDocument, position: vscode.Position): { range: vscode.Range; text: string } | undefined {
    const shown = this.current;
    if (!shown || shown.editor.document !== document || !position.isEqual(shown.range.start) || !isGhost(shown)) return undefined;
    return { range: shown.range, text: shown.edit.newText };
  }

  predictions(): number {
    return this.runs;
  }

  followed(): number {
    return this.history?.documents ?? 0;
  }

  /**
   * On (wisp.nextEdit.enabled): follows the open documents' edits from their text as it is now.
   * Off: follows nothing and forgets their text, drops the suggestion and stops the model's request.
   */
  setEnabled(enabled: boolean): void {
    if (enabled === (this.history !== undefined)) return;
    if (!enabled) {
      this.following?.dispose();
      this.following = undefined;
      this.history = undefined;
      clearTimeout(this.timer);
      this.asking?.abort();
      this.asking = undefined;
      this.clear();
      return;
    }
    const history = new EditHistory();
    this.history = history;
    for (const document of vscode.workspace.textDocuments) follow(history, document);
    this.following = vscode.Disposable.from(
      vscode.workspace.onDidOpenTextDocument((d) => follow(history, d)),
      vscode.workspace.onDidCloseTextDocument((d) => {
        history.close(d.uri.toString());
        if (this.current?.editor.document === d) this.clear();
      }),
      vscode.workspace.onDidChangeTextDocument((e) => this.changed(history, e)),
    );
  }

  /** Tab: to the suggestion when the cursor is elsewhere, else applies it and proposes the next one. */
  async tab(): Promise<void> {
    const shown = this.current;
    if (!shown) return;
    const { editor, range, edit } = shown;
    if (!editor.selection.active.isEqual(range.start)) {
      editor.selection = new vscode.Selection(range.start, range.start);
      editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
      return;
    }
    const since = performance.now();
    this.clear();
    this.applying = editor.document;
    try {
      if (!(await editor.edit((builder) => builder.replace(range, edit.newText)))) return;
    } finally {
      this.applying = undefined;
    }
    const end = editor.document.positionAt(edit.offset + edit.newText.length);
    editor.selection = new vscode.Selection(end, end);
    this.predict(editor.document, since);
  }

  /** Escape: drops the suggestion, and the same one is not offered again for a while. */
  dismiss(): void {
    if (!this.current) return;
    if (isGhost(this.current)) void vscode.commands.executeCommand("editor.action.inlineSuggest.hide");
    this.rejected.set(keyOf(this.current.editor.document, this.current.edit), performance.now() + rejectedForMs);
    this.clear();
  }

  private changed(history: EditHistory, e: vscode.TextDocumentChangeEvent): void {
    if (e.contentChanges.length === 0 || !editedSchemes.has(e.document.uri.scheme)) return;
    const uri = e.document.uri.toString();
    const accepted = this.current?.editor.document === e.document && isGhost(this.current) && committed(history, this.current.edit, e);
    const own = this.applying === e.document || accepted;
    history.change(uri, e.contentChanges.map((c) => ({ offset: c.rangeOffset, length: c.rangeLength, text: c.text })), own);
    this.asking?.abort();
    if (this.applying === e.document) return;
    // The user's change, or the ghost text just accepted: either way, a fresh prediction follows.
    // Its drawing stays until then (a tick), so a keystroke repaints once rather than erasing first:
    // the renderer's work delays the editor's next keystroke.
    if (this.current?.editor.document === e.document) this.current = undefined;
    clearTimeout(this.timer);
    // Undo and redo restore what was there: nothing follows from them.
    if (e.reason !== undefined) return this.erase();
    // After the editor has applied the keystroke (and moved the cursor), not inside its event.
    const since = performance.now();
    this.timer = setTimeout(() => {
      // A file reloaded from disk (a checkout, a formatter run outside) is left saved; the user's first
      // keystroke in a saved file reads as saved in its own event too, and dirty in the one VS Code sends right after it.
      if (!e.document.isDirty && diskSchemes.has(e.document.uri.scheme)) {
        history.disown(uri);
        this.runs++;
      } else this.predict(e.document, since);
      this.erase();
    }, 0);
  }

  private predict(document: vscode.TextDocument, since: number): void {
    this.runs++;
    const editor = vscode.window.activeTextEditor;
    const history = this.history;
    if (!history || editor?.document !== document) return;
    const uri = document.uri.toString();
    const hunk = history.last(uri);
    const text = history.text(uri);
    if (!hunk || text === undefined || text.length > maxChars) return;
    this.show(editor, predictNextEdits(text, hunk), since);
    if (this.model?.asks(document)) this.ask(this.model, history, editor, text, hunk, since);
  }

  /** Shows the first of `edits` from the cursor on that was not dismissed lately, in place of the current one. */
  private show(editor: vscode.TextEditor, edits: readonly NextEdit[], since: number): void {
    const { document } = editor;
    const now = performance.now();
    for (const [key, until] of this.rejected) if (until <= now) this.rejected.delete(key);
    const edit = nextEditFrom(edits.filter((e) => !this.rejected.has(keyOf(document, e))), document.offsetAt(editor.selection.active));
    if (!edit) return;
    if (this.painted && this.painted !== editor) this.decorations.clear(this.painted);
    const range = new vscode.Range(document.positionAt(edit.offset), document.positionAt(edit.offset + edit.oldText.length));
    this.current = { editor, edit, range, latencyMs: performance.now() - since, triggered: false };
    this.setKey(true);
    this.draw(this.current);
  }

  /** Asks the model about the same text; its answer is shown unless the document changed or the user left meanwhile. */
  private ask(model: ModelPredictor, history: EditHistory, editor: vscode.TextEditor, text: string, latest: Hunk, since: number): void {
    this.asking?.abort();
    const asking = new AbortController();
    this.asking = asking;
    const recent = history.recent().flatMap((hunk) => {
      const its = history.text(hunk.uri);
      return its === undefined ? [] : [{ hunk, text: its }];
    });
    const question = { document: editor.document, text, cursor: editor.document.offsetAt(editor.selection.active), latest, recent };
    void model.predict(question, asking.signal).then((edits) => {
      // Turning it off aborts the request too.
      if (asking.signal.aborted || vscode.window.activeTextEditor !== editor) return;
      this.show(editor, edits, since);
    });
  }

  private draw(shown: Shown): void {
    const ghost = isGhost(shown);
    this.painted = shown.editor;
    this.decorations.draw(shown.editor, ghost ? undefined : shown.range, shown.edit.newText, shown.editor.selection.active.line, hintFor(shown));
    if (ghost && !shown.triggered) {
      shown.triggered = true;
      void vscode.commands.executeCommand("editor.action.inlineSuggest.trigger");
    }
  }

  /** Hides the suggestion, if any (when turned off, or when it no longer applies). */
  clear(): void {
    this.current = undefined;
    this.erase();
  }

  /** Takes a suggestion that no longer applies off the screen, unless another one is shown. */
  private erase(): void {
    if (this.current) return;
    if (this.painted) this.decorations.clear(this.painted);
    this.painted = undefined;
    this.setKey(false);
  }

  private setKey(shown: boolean): void {
    if (shown === this.keyShown) return;
    this.keyShown = shown;
    void setContext(contextKey, shown);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.asking?.abort();
    this.following?.dispose();
    // No context key set while the window closes: the editor refuses the command and logs an error.
    this.keyShown = false;
    this.clear();
    for (const s of this.subscriptions) s.dispose();
  }
}

function follow(history: EditHistory, document: vscode.TextDocument): void {
  if (editedSchemes.has(document.uri.scheme)) history.open(document.uri.toString(), document.getText());
}

/**
 * Whether the event is VS Code committing the suggestion's ghost text (it may send only the
 * inserted characters): the document is now exactly the text with the suggestion applied.
 */
function committed(history: EditHistory, edit: NextEdit, e: vscode.TextDocumentChangeEvent): boolean {
  const before = history.text(e.document.uri.toString());
  if (before === undefined) return false;
  return e.document.getText() === before.slice(0, edit.offset) + edit.newText + before.slice(edit.offset + edit.oldText.length);
}

function isGhost({ editor, range, edit }: Shown): boolean {
  return editor.selection.active.isEqual(range.start) && onlyInserts(edit);
}

function hintFor({ editor, range }: Shown): string {
  return editor.selection.active.isEqual(range.start) ? "Tab to accept · Esc to dismiss" : `Tab to jump to line ${range.start.line + 1} · Esc to dismiss`;
}

/** The same change of the same text in the same document, wherever it is. */
function keyOf(document: vscode.TextDocument, edit: NextEdit): string {
  return `${document.uri.toString()}\0${edit.oldText}\0${edit.newText}`;
}
