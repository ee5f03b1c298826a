import * as vscode from "vscode";
import { reviewScheme } from "./edit/review-copies";

/**
 * Documents the user writes: files (local, remote, virtual), untitled ones, a notebook's cells, the
 * editor's settings, and files of a writable file system another extension provides (SSH FS,
 * Live Share's vsls:). Not views of something else: a diff's older side (git:), an Output channel,
 * another extension's generated document, Wisp's own review copies.
 */
const userSchemes: ReadonlySet<string> = new Set(["file", "untitled", "vscode-remote", "vscode-vfs", "vscode-userdata", "vscode-notebook-cell"]);

export function isUserDocument(document: vscode.TextDocument): boolean {
  const { scheme } = document.uri;
  return userSchemes.has(scheme) || (scheme !== reviewScheme && vscode.workspace.fs.isWritableFileSystem(scheme) === true);
}
