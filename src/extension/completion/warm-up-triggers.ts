import * as vscode from "vscode";

/** A cursor jump at least this many lines long makes a new prompt worth warming. */
const farLines = 40;
/** Switching through tabs or scrolling with the cursor: warm where the user settles. */
const settleMs = 300;

/**
 * Asks for a prompt warm-up where the user is about to type: when an editor becomes active (a file
 * opened or switched to) and when the cursor jumps far without an edit. `warm` gets the editor's
 * document and cursor; `wanted` filters documents (completions off, other schemes).
 */
export function warmOnNavigation(warm: (document: vscode.TextDocument, position: vscode.Position) => void, wanted: (document: vscode.TextDocument) => boolean): vscode.Disposable {
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** Where each document's cursor last was, and at which version (an edit moves it too). */
  const seen = new WeakMap<vscode.TextDocument, { line: number; version: number }>();
  const schedule = (editor: vscode.TextEditor | undefined) => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (!editor || !wanted(editor.document)) return;
    timer = setTimeout(() => {
      timer = undefined;
      if (vscode.window.activeTextEditor !== editor) return;
      const position = editor.selection.active;
      seen.set(editor.document, { line: position.line, version: editor.document.version });
      warm(editor.document, position);
    }, settleMs);
  };
  schedule(vscode.window.activeTextEditor);
  return vscode.Disposable.from(
    vscode.window.onDidChangeActiveTextEditor(schedule),
    vscode.window.onDidChangeTextEditorSelection((e) => {
      if (e.textEditor !== vscode.window.activeTextEditor) return;
      const { document } = e.textEditor;
      const line = e.selections[0]?.active.line ?? 0;
      const last = seen.get(document);
      if (last && last.version !== document.version) {
        seen.set(document, { line, version: document.version }); // typing, not a jump
      } else if (!last || Math.abs(line - last.line) >= farLines) {
        schedule(e.textEditor);
      }
    }),
    { dispose: () => timer && clearTimeout(timer) },
  );
}
