import { stat } from "node:fs/promises";
import * as vscode from "vscode";

/**
 * Whether a file (or folder) is there. A file on the extension host's disk is asked of node:fs:
 * the editor's file service is a round trip of tens of milliseconds (see context/text-files.ts).
 */
export async function fileExists(uri: vscode.Uri): Promise<boolean> {
  try {
    await (uri.scheme === "file" ? stat(uri.fsPath) : vscode.workspace.fs.stat(uri));
    return true;
  } catch {
    return false;
  }
}
