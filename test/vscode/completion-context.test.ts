import * as assert from "node:assert/strict";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { WispApi } from "../../src/extension/extension";
import { ScriptedApi } from "../harness/scripted-api";
import { waitFor } from "../harness/wait-for";
import { activateWisp, connectWisp, resetWisp } from "./support/wisp-extension";

/**
 * The code of other files that goes with ghost-text requests, as the scripted server receives it:
 * a file the user worked in goes, and stops going once the file is deleted or renamed away.
 */
describe("Ghost text's context from other files (real VS Code, scripted server)", function () {
  this.timeout(90_000);
  const key = "sk-wisp-context";
  let api: WispApi;
  let server: ScriptedApi;
  const made: string[] = [];

  before(async () => {
    api = await activateWisp();
    server = await ScriptedApi.start({ key, models: ["wisp-scripted"] });
    await connectWisp(api, server.baseUrl, key);
  });
  afterEach(async () => {
    await closeEditors();
    for (const path of made.splice(0)) rmSync(path, { recursive: true, force: true });
  });
  after(async () => {
    await resetWisp();
    await server?.close();
  });

  /** Closes the editors, dropping the keys typed (no "save?" dialog). */
  async function closeEditors(): Promise<void> {
    for (let i = 0; i < 10 && vscode.window.activeTextEditor; i++) {
      await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
    }
  }

  function write(name: string, text: string): vscode.Uri {
    const path = join(process.env.WISP_TEST_WORKSPACE!, name);
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, text);
    made.push(join(process.env.WISP_TEST_WORKSPACE!, name.split("/")[0]!));
    return vscode.Uri.file(path);
  }

  /** Opens `uri` with the cursor at its end, as the user switching to it. */
  async function openAtEnd(uri: vscode.Uri): Promise<vscode.TextEditor> {
    const editor = await vscode.window.showTextDocument(uri);
    const end = editor.document.lineAt(editor.document.lineCount - 1).range.end;
    editor.selection = new vscode.Selection(end, end);
    return editor;
  }

  /**
   * Types a word of its own, then removes it, until a request's prompt passes `check`: the ring is
   * fed by events the extension host delivers in their own time (a watcher's delete among them).
   * Each word is new, so no answer comes from the completion cache.
   */
  let words = 0;
  async function promptUntil(what: string, check: (prompt: string) => boolean): Promise<string> {
    return waitFor(what, async () => {
      const word = `x${words++}`;
      for (const ch of word) await vscode.commands.executeCommand("type", { text: ch });
      const find = () => server.textRequests.find((r) => r.body.prompt.endsWith(word));
      const request = await waitFor(`a request ending ${word}`, find, (r) => r !== undefined, 20_000);
      for (let i = 0; i < word.length; i++) await vscode.commands.executeCommand("deleteLeft");
      return request!.body.prompt;
    }, check, 60_000);
  }

  it("a file deleted outside the editor (a terminal, git checkout) stops going with completions", async () => {
    const source = write("ctx-deleted/helpers.ts", "export function ringMarkerDeleted(n: number) {\n  return n * 7;\n}\n");
    const target = write("ctx-deleted-main.ts", "const value = 1;\n");
    made.push(target.fsPath);
    await openAtEnd(source);
    await openAtEnd(target);
    await promptUntil("the helper's code in the prompt", (p) => p.includes("ringMarkerDeleted"));
    await closeEditors();
    rmSync(source.fsPath);
    await openAtEnd(target);
    const prompt = await promptUntil("a prompt without the deleted file's code", (p) => !p.includes("ringMarkerDeleted"));
    assert.ok(!prompt.includes("helpers.ts"), "the deleted file's path went too");
  });

  it("a folder renamed in the editor: its files' chunks stop going under their old paths", async () => {
    const source = write("ctx-renamed/util.ts", "export const ringMarkerRenamed = 42;\n");
    const target = write("ctx-renamed-main.ts", "const other = 2;\n");
    made.push(target.fsPath, join(process.env.WISP_TEST_WORKSPACE!, "ctx-renamed-new"));
    await openAtEnd(source);
    await openAtEnd(target);
    await promptUntil("the util's code in the prompt", (p) => p.includes("ringMarkerRenamed") && p.includes("ctx-renamed/util.ts"));
    const edit = new vscode.WorkspaceEdit();
    edit.renameFile(vscode.Uri.joinPath(source, ".."), vscode.Uri.file(join(process.env.WISP_TEST_WORKSPACE!, "ctx-renamed-new")));
    assert.ok(await vscode.workspace.applyEdit(edit), "the folder renamed");
    await openAtEnd(target);
    await promptUntil("a prompt without the old path", (p) => !p.includes("ctx-renamed/util.ts"));
  });

  it("the editor's settings.json, opened or written at a settings change, never goes with completions (it holds proxy credentials, MCP tokens)", async () => {
    const images = vscode.workspace.getConfiguration("wisp.image");
    await images.update("folder", "ringMarkerSettings", vscode.ConfigurationTarget.Global);
    try {
      // The file itself, as VS Code's settings editing loads it to write a change, or as a user
      // opens it from disk (File: Open, a dotfiles folder).
      const file = vscode.Uri.file(join(process.env.WISP_TEST_USER_DATA_DIR!, "User", "settings.json"));
      const settings = (await vscode.window.showTextDocument(file)).document;
      assert.ok(settings.getText().includes("ringMarkerSettings"), "the setting is in the file");
      const source = write("ctx-settings/after.ts", "export const ringMarkerAfter = 3;\n");
      const target = write("ctx-settings-main.ts", "const third = 3;\n");
      made.push(target.fsPath);
      await openAtEnd(source);
      await openAtEnd(target);
      // The file opened after settings.json is in: whatever the ring took before it would be too.
      const prompt = await promptUntil("the file opened after settings.json in the prompt", (p) => p.includes("ringMarkerAfter"));
      assert.ok(!prompt.includes("ringMarkerSettings"), `settings.json went with the completion:\n${prompt}`);
    } finally {
      await images.update("folder", undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
