import * as vscode from "vscode";

export interface TextFileLimits {
  /** Larger files are not read: generated bundles and data files, not code to reason about. */
  readonly maxBytes: number;
}

/** Why a file was not read as text. */
export type NotText = "too-large" | "binary";

/** A file's text, or why it is not one to send: too large, or binary (a NUL byte in its start). */
export async function readTextFile(uri: vscode.Uri, limits: TextFileLimits): Promise<string | NotText> {
  const stat = await vscode.workspace.fs.stat(uri);
  if (stat.type & vscode.FileType.Directory) throw new Error(`${uri.fsPath} is a folder`);
  if (stat.size > limits.maxBytes) return "too-large";
  const bytes = await vscode.workspace.fs.readFile(uri);
  if (bytes.subarray(0, 8192).includes(0)) return "binary";
  return new TextDecoder().decode(bytes);
}
