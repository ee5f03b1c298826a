import * as vscode from "vscode";
import type { ContextRing } from "../../core/completion/context-ring";

/** Editors whose text is the user's code (not output channels, diffs of git objects, settings UIs). */
export const codeSchemes: ReadonlySet<string> = new Set(["file", "untitled", "vscode-remote", "vscode-vfs"]);

/**
 * Feeds the ring with the code around where the user works: what they open or switch to, what
 * they edit and what they save. Chunks of the current file are not sent while it is being edited
 * (it is already in the prefix), so edits here never disturb the prompt's shared start.
 */
export function feedContextRing(ring: ContextRing, isSensitive: (uri: vscode.Uri) => boolean, userDataDir?: vscode.Uri): vscode.Disposable {
  // The editor's own settings.json (written at each settings change) holds proxy credentials and
  // MCP servers' tokens; it is not code the user works on.
  const userData = userDataDir && `${userDataDir.path.replace(/\/$/, "").toLowerCase()}/`;
  const add = (document: vscode.TextDocument, line: number) => {
    // A sensitive file's lines would go with completions in other files: never taken.
    if (!codeSchemes.has(document.uri.scheme) || isSensitive(document.uri)) return;
    if (userData && document.uri.path.toLowerCase().startsWith(userData)) return;
    const lines = { lineCount: document.lineCount, lineText: (i: number) => document.lineAt(i).text };
    ring.addAround(document.uri.toString(), vscode.workspace.asRelativePath(document.uri), lines, line);
  };
  const addEditor = (editor: vscode.TextEditor | undefined) => {
    if (editor) add(editor.document, editor.selection.active.line);
  };
  for (const editor of vscode.window.visibleTextEditors) addEditor(editor);
  // Code that is gone (deleted, renamed away, an untitled buffer closed unsaved) no longer goes
  // with completions. Deletes outside the editor (git checkout, a terminal) come from the watcher.
  const forget = (uri: vscode.Uri) => ring.forget(uri.toString());
  const deleted = vscode.workspace.createFileSystemWatcher("**/*", true, true, false);
  return vscode.Disposable.from(
    deleted,
    deleted.onDidDelete(forget),
    vscode.workspace.onDidDeleteFiles((e) => e.files.forEach(forget)),
    vscode.workspace.onDidRenameFiles((e) => e.files.forEach((f) => forget(f.oldUri))),
    vscode.workspace.onDidCloseTextDocument((document) => {
      if (document.isUntitled) forget(document.uri);
    }),
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
