import * as vscode from "vscode";
import { fileUriOf } from "../notebook-cell";
import { folderPathCandidates, workspacePathOf } from "../../core/context/workspace-paths";

const folders = () => vscode.workspace.workspaceFolders ?? [];

/** The workspace folders' names, in order: what core's path functions take. */
export function folderNames(): string[] {
  return folders().map((f) => f.name);
}

/**
 * How the chat names a file (see core/context/workspace-paths.ts): relative to its folder, prefixed
 * with the folder's name when the workspace has more than one; outside the folders, as
 * asRelativePath gives it (its full path). A notebook's cell is named as its notebook.
 */
export function workspacePath(cellOrFile: vscode.Uri): string {
  const uri = fileUriOf(cellOrFile);
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  const relative = vscode.workspace.asRelativePath(uri, false);
  return folder === undefined ? relative : workspacePathOf(folderNames(), folder.index, relative);
}

/** The URIs a chat path may mean, most likely first (several only where the path alone cannot tell). */
export function workspaceUris(path: string): vscode.Uri[] {
  const all = folders();
  return folderPathCandidates(path, folderNames()).map((c) => vscode.Uri.joinPath(all[c.folder]!.uri, c.relative));
}

/**
 * The folder a command without one of its own works in: that of `uri` (the file the user works
 * in), else the first. One folder: always that one.
 */
export function folderFor(uri: vscode.Uri | undefined): vscode.WorkspaceFolder | undefined {
  return (uri && vscode.workspace.getWorkspaceFolder(uri)) ?? folders()[0];
}
