import * as vscode from "vscode";
import type { ContextRing } from "../../core/completion/context-ring";

/** Editors whose text is the user's code (not output channels, diffs of git objects, settings UIs). */
export const codeSchemes: ReadonlySet<string> = new Set(["file", "untitled", "vscode-remote", "vscode-vfs"]);

/**
 * Feeds the ring with the code around where the user works: what they open or switch to, what
 * they edit and what they save. Chunks of the current file are not sent while it is being edited
 * (it is already in the prefix), so edits here never disturb the prompt's shared start.
 */
export function feedContextRing(ring: ContextRing, isSensitive: (uri: vscode.Uri) => boolean): vscode.Disposable {
  const add = (document: vscode.TextDocument, line: number) => {
    // A sensitive file's lines would go with completions in other files: never taken.
    if (!codeSchemes.has(document.uri.scheme) || isSensitive(document.uri)) return;
    const lines = { lineCount: document.lineCount, lineText: (i: number) => document.lineAt(i).text };
    ring.addAround(document.uri.toString(), vscode.workspace.asRelativePath(document.uri), lines, line);
  };
  const addEditor = (editor: vscode.TextEditor | undefined) => {
    if (editor) add(editor.document, editor.selection.active.line);
  };
  for (const editor of vscode.window.visibleTextEditors) addEditor(editor);
  return vscode.Disposable.from(
    vscode.window.onDidChangeActiveTextEditor(addEditor),
    vscode.workspace.onDidChangeTextDocument((e) => {
      const change = e.contentChanges[0];
      if (change) add(e.document, change.range.start.line);
    }),
    vscode.workspace.onDidSaveTextDocument((document) => {
      const editor = vscode.window.activeTextEditor;
      add(document, editor?.document === document ? editor.selection.active.line : 0);
    }),
  );
}
