import { stat } from "node:fs/promises";
import { basename } from "node:path";
import * as vscode from "vscode";
import { tooLargeForExtensions } from "../core/base/too-large-for-extensions";

/**
 * What to say when a command needs the active editor and there is none: `ask` ("Open a file and
 * select the code to change."), after the reason when the active tab shows a file too large for
 * VS Code to hand to extensions (otherwise the user is told to open the file they have open).
 */
export async function noEditorMessage(ask: string): Promise<string> {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  const uri = input instanceof vscode.TabInputText ? input.uri : undefined;
  if (uri === undefined) return ask;
  const bytes = await (uri.scheme === "file" ? stat(uri.fsPath) : vscode.workspace.fs.stat(uri)).then((s) => s.size, () => undefined);
  const why = tooLargeForExtensions(basename(uri.path), bytes);
  return why === undefined ? ask : `${why} ${ask}`;
}
