import * as vscode from "vscode";
import { systemClock } from "../../core/base/clock";
import { WarmUpSchedule } from "../../core/completion/warm-up-schedule";

/**
 * Asks for a prompt warm-up where the user is about to type (see WarmUpSchedule): when an editor
 * becomes active (a file opened or switched to) and when the cursor jumps far without an edit.
 * `warm` gets the editor's document and cursor; `wanted` filters documents (completions off, other
 * schemes).
 */
export function warmOnNavigation(warm: (document: vscode.TextDocument, position: vscode.Position) => void, wanted: (document: vscode.TextDocument) => boolean): vscode.Disposable {
  const schedule = new WarmUpSchedule<vscode.TextEditor, vscode.TextDocument>(
    systemClock,
    (editor) => ({ document: editor.document, line: editor.selection.active.line, version: editor.document.version }),
    (editor) => {
      if (vscode.window.activeTextEditor === editor) warm(editor.document, editor.selection.active);
    },
  );
  const warmable = (editor: vscode.TextEditor | undefined) => (editor && wanted(editor.document) ? editor : undefined);
  schedule.activated(warmable(vscode.window.activeTextEditor));
  return vscode.Disposable.from(
    vscode.window.onDidChangeActiveTextEditor((editor) => schedule.activated(warmable(editor))),
    vscode.window.onDidChangeTextEditorSelection((e) => {
      if (e.textEditor === vscode.window.activeTextEditor && wanted(e.textEditor.document)) schedule.moved(e.textEditor);
    }),
    schedule,
  );
}
