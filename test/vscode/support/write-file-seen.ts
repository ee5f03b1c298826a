import { writeFileSync } from "node:fs";
import * as vscode from "vscode";
import { waitFor } from "../../harness/wait-for";

/**
 * Writes a file behind VS Code's back, as a test's setup does, and waits until a document VS Code
 * still holds for it (an editor closed a moment ago keeps its model) shows the new text. Until the
 * file watcher reloads that model, an editor opened on the file shows the old text, and an edit made
 * in it is lost to the reload (`editor.edit` answers false) or refuses the next save (newer on disk).
 */
export async function writeFileSeen(path: string, text: string): Promise<void> {
  writeFileSync(path, text);
  const loaded = () => vscode.workspace.textDocuments.find((d) => d.uri.scheme === "file" && d.uri.fsPath === vscode.Uri.file(path).fsPath);
  await waitFor(`${path} as written, in the document VS Code holds`, () => loaded()?.getText(), (t) => t === undefined || t === text);
}
