import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { waitFor } from "../../harness/wait-for";

/**
 * Writes a file behind VS Code's back, as a test's setup does, and waits until a document VS Code
 * still holds for it (an editor closed a moment ago keeps its model) shows the new text. Until the
 * file watcher reloads that model, an editor opened on the file shows the old text, and an edit made
 * in it is lost to the reload (`editor.edit` answers false) or refuses the next save (newer on disk).
 */
export async function writeFileSeen(path: string, content: string | Uint8Array): Promise<void> {
  writeFileSync(path, content);
  // As the document reads it: UTF-8 without a byte order mark.
  await documentSeen(path, typeof content === "string" ? content : new TextDecoder().decode(content));
}

/** Waits until a document VS Code holds for `path`, if any, shows `text` (the file on disk changed behind it). */
async function documentSeen(path: string, text: string): Promise<void> {
  const loaded = () => vscode.workspace.textDocuments.find((d) => d.uri.scheme === "file" && d.uri.fsPath === vscode.Uri.file(path).fsPath);
  await waitFor(`${path} as written, in the document VS Code holds`, () => loaded()?.getText(), (t) => t === undefined || t === text);
}

/**
 * A case's folder as it starts: `files` (name → text) written over and seen, everything else in it
 * removed. Not the folder removed and made again: the watcher can lose that pair of events.
 */
export async function resetFolder(folder: string, files: Readonly<Record<string, string | Uint8Array>>): Promise<void> {
  mkdirSync(folder, { recursive: true });
  for (const name of readdirSync(folder)) if (!(name in files)) rmSync(join(folder, name), { recursive: true, force: true });
  for (const [name, text] of Object.entries(files)) await writeFileSeen(join(folder, name), text);
}
