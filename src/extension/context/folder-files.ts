import { readdir, stat } from "node:fs/promises";
import * as vscode from "vscode";

/** Whether an entry found on disk is let in (a folder: looked into). */
export type LetIn = (uri: vscode.Uri, isFolder: boolean) => Promise<boolean>;

/**
 * The files under a local folder, read from the disk, that `letIn` lets in (with every folder above
 * them), at most `max`. A folder's event then costs no workspace search. A linked folder is not
 * followed (a link may point back up); a linked file is taken as a file.
 */
export async function folderFiles(root: vscode.Uri, letIn: LetIn, max: number): Promise<vscode.Uri[]> {
  const files: vscode.Uri[] = [];
  const folders = [root];
  while (folders.length > 0 && files.length < max) {
    const folder = folders.pop()!;
    // Gone meanwhile: its delete event forgets what it held.
    const entries = await readdir(folder.fsPath, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (files.length >= max) break;
      const uri = vscode.Uri.joinPath(folder, entry.name);
      const isFolder = entry.isDirectory();
      const isFile = entry.isFile() || (entry.isSymbolicLink() && (await stat(uri.fsPath).then((s) => s.isFile(), () => false)));
      if ((!isFolder && !isFile) || !(await letIn(uri, isFolder))) continue;
      if (isFolder) folders.push(uri);
      else files.push(uri);
    }
  }
  return files;
}
