import * as vscode from "vscode";

/**
 * Whether files.encoding gives the file an encoding other than UTF-8 (windows1252, latin1,
 * utf16le…): the editor reads and saves it in that encoding, so the agent's tools read and write
 * it through the editor, where bytes written as UTF-8 would show as other characters there.
 */
export function encodedNotUtf8(uri: vscode.Uri): boolean {
  const encoding = vscode.workspace.getConfiguration("files", uri).get<string>("encoding");
  return encoding !== undefined && encoding !== "utf8" && encoding !== "utf8bom";
}
