import * as vscode from "vscode";
import { editorDecoder } from "../../core/base/editor-encoding";

/**
 * Whether files.encoding gives the file an encoding other than UTF-8 (windows1252, latin1,
 * utf16le…): the editor reads and saves it in that encoding, so the agent's tools read and write
 * it through the editor, where bytes written as UTF-8 would show as other characters there.
 */
export function encodedNotUtf8(uri: vscode.Uri): boolean {
  const encoding = vscode.workspace.getConfiguration("files", uri).get<string>("encoding");
  return encoding !== undefined && encoding !== "utf8" && encoding !== "utf8bom";
}

/** The file's bytes as the editor reads them: in the encoding files.encoding gives it (the task's originals, a file on disk). */
export function decodeAsEditor(bytes: Uint8Array, uri: vscode.Uri | undefined): string {
  return editorDecoder(vscode.workspace.getConfiguration("files", uri).get<string>("encoding")).decode(bytes);
}
