import * as vscode from "vscode";

/**
 * The editor showing `document` that the user works in: the active one, else the first visible.
 * A file split into two groups has an editor in each, with its own selection and scroll.
 */
export function editorOf(document: vscode.TextDocument): vscode.TextEditor | undefined {
  const active = vscode.window.activeTextEditor;
  return active?.document === document ? active : vscode.window.visibleTextEditors.find((e) => e.document === document);
}
