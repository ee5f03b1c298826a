import * as vscode from "vscode";
import { globToRegExp } from "../../core/context/exclude-globs";

/**
 * Whether VS Code opens `uri` read-only, as far as an extension can tell: a file system that cannot
 * be written, `files.readonlyInclude` (less `files.readonlyExclude`), or the file's permissions
 * under `files.readonlyFromPermissions`. A file made read-only for the session by a command is not seen.
 */
export async function isReadOnly(uri: vscode.Uri): Promise<boolean> {
  if (uri.scheme === "untitled") return false;
  if (vscode.workspace.fs.isWritableFileSystem(uri.scheme) === false) return true;
  // readonlyInclude/Exclude are resource-scoped, readonlyFromPermissions window-scoped: read
  // otherwise, VS Code warns in the log (and the test harness fails a run on that warning).
  const files = vscode.workspace.getConfiguration("files", uri);
  // Patterns apply to the path in its workspace folder, and to the absolute path.
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  const paths = [uri.path.replace(/^\//, ""), ...(folder ? [vscode.workspace.asRelativePath(uri, false)] : [])];
  const matches = (setting: string) =>
    Object.entries(files.get<Record<string, unknown>>(setting) ?? {}).some(([glob, on]) => on === true && paths.some((path) => globToRegExp(glob).test(path)));
  if (matches("readonlyInclude")) return !matches("readonlyExclude");
  if (vscode.workspace.getConfiguration("files").get<boolean>("readonlyFromPermissions") !== true) return false;
  const stat = await Promise.resolve(vscode.workspace.fs.stat(uri)).catch(() => undefined);
  return ((stat?.permissions ?? 0) & vscode.FilePermission.Readonly) !== 0;
}
