import type * as vscode from "vscode";

/**
 * Documents the user writes: files (local, remote, virtual), untitled ones, a notebook's cells, the
 * editor's settings. Not views of something else: a diff's older side (git:), an Output channel,
 * another extension's generated document.
 */
const userSchemes: ReadonlySet<string> = new Set(["file", "untitled", "vscode-remote", "vscode-vfs", "vscode-userdata", "vscode-notebook-cell"]);

export function isUserDocument(document: vscode.TextDocument): boolean {
  return userSchemes.has(document.uri.scheme);
}
