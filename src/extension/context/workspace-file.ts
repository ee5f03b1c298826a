import * as vscode from "vscode";

/**
 * The workspace file a workspace-relative path from the chat names (an answer's code block, Open),
 * or undefined when it leaves the workspace or does not exist.
 */
export async function workspaceFile(path: string): Promise<vscode.Uri | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (folder === undefined || path.split(/[\\/]/).includes("..")) return undefined;
  const uri = vscode.Uri.joinPath(folder.uri, path.replace(/^\.\//, ""));
  return vscode.workspace.fs.stat(uri).then(
    (stat) => (stat.type & vscode.FileType.File ? uri : undefined),
    () => undefined,
  );
}
