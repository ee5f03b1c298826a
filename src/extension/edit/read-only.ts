import * as vscode from "vscode";
import { globToRegExp } from "../../core/context/exclude-globs";
import { fileUriOf } from "../notebook-cell";

/**
 * Documents edited in place though no file system may be listed for them here: untitled ones,
 * user settings and remote files (as Apply takes them).
 */
const editableViews = new Set(["untitled", "vscode-userdata", "vscode-remote"]);

/**
 * Whether VS Code opens `uri` read-only, as far as an extension can tell: a document no file system
 * holds (a content provider's: a diff's git: side, an Output channel), a file system that cannot
 * be written, `files.readonlyInclude` (less `files.readonlyExclude`), or the file's permissions
 * under `files.readonlyFromPermissions`. A file made read-only for the session by a command is not seen.
 */
export async function readOnlyKind(uri: vscode.Uri): Promise<"view" | "file" | undefined> {
  if (editableViews.has(uri.scheme)) return undefined;
  // A notebook's cell is written through its notebook: read-only when the notebook is (an
  // .ipynb under files.readonlyInclude opens with every cell read-only).
  if (uri.scheme === "vscode-notebook-cell") {
    const notebook = fileUriOf(uri);
    return notebook.scheme === "vscode-notebook-cell" ? undefined : readOnlyKind(notebook);
  }
  const writable = vscode.workspace.fs.isWritableFileSystem(uri.scheme);
  if (writable === undefined) return "view";
  return (await readOnlyFile(uri, writable)) ? "file" : undefined;
}

async function readOnlyFile(uri: vscode.Uri, writable: boolean): Promise<boolean> {
  if (!writable) return true;
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
