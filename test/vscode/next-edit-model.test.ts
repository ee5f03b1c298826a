import * as assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { WispApi } from "../../src/extension/extension";
import type { NextEditView } from "../../src/extension/next-edit/next-edit-controller";
import { ScriptedApi, type CompletionBody } from "../harness/scripted-api";
import { waitFor } from "../harness/wait-for";
import { activateWisp, connectWisp, resetWisp } from "./support/wisp-extension";
import { writeFileSeen } from "./support/write-file-seen";

const name = "next-edit-model.ts";
const source = ["function sum(items: number[]) {", "  let count = 0;", "  // add up every item", "  for (const item of items) {", "    count += item;", "  }", "  return count;", "}", ""].join("\n");

/** What the scripted model makes of a window: `count` renamed, and a comment no local rule would write. */
function rewrite(window: string): string {
  return window.replace(/\bcount\b/g, "total").replace("// add up every item\n", "// add up every item into total\n");
}

/** The window the prompt's `current/` block carries (the whole file here: it is under 21 lines). */
function currentWindow(prompt: string): string {
  return prompt.slice(prompt.indexOf(`<|file_sep|>current/${name}\n`) + `<|file_sep|>current/${name}\n`.length, prompt.indexOf(`<|file_sep|>updated/${name}\n`));
}

/**
 * The model path in a real VS Code against a scripted /v1/completions: with `wisp.nextEdit.model`
 * set, an edit sends Sweep's next-edit prompt, and the model's rewrite of the window becomes the
 * suggestion (ahead of the local predictor's), which Tab jumps to and accepts.
 */
describe("Next-edit suggestions (real VS Code, model path)", function () {
  this.timeout(60_000);
  const key = "sk-wisp-next-edit-model";
  let api: WispApi;
  let server: ScriptedApi;
  const file = join(process.env.WISP_TEST_WORKSPACE!, name);
  const prompts = () => server.textRequests.map((c) => c.body).filter((b) => b.prompt.startsWith("<|file_sep|>"));

  before(async () => {
    api = await activateWisp();
    // The model answers the current window rewritten, then the stop token a server that ignores `stop` would send on.
    server = await ScriptedApi.start({ key, models: ["sweep-next-edit"], complete: (body) => `${rewrite(currentWindow(body.prompt))}<|file_sep|>` });
    await connectWisp(api, server.baseUrl, key);
    // Ghost text would take Tab for itself and send its own requests.
    await vscode.workspace.getConfiguration("wisp.completion").update("enabled", false, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration("wisp.nextEdit").update("model", "sweep-next-edit", vscode.ConfigurationTarget.Global);
    writeFileSync(file, source);
  });
  after(async () => {
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
    rmSync(file, { force: true });
    await vscode.workspace.getConfiguration("wisp.nextEdit").update("model", undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration("wisp.completion").update("enabled", undefined, vscode.ConfigurationTarget.Global);
    await resetWisp();
    await server?.close();
  });

  it("sends the edit in Sweep's prompt format and offers the model's edit first; Tab jumps and accepts", async () => {
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
    const start = new vscode.Position(1, 6);
    editor.selection = new vscode.Selection(start, start.translate(0, "count".length));
    for (const ch of "total") await vscode.commands.executeCommand("type", { text: ch });

    // The local predictor would offer line 5's `count`; the model's comment comes first from the cursor.
    const view = await waitFor("the model's suggestion", () => api.nextEdit.shown(), (v?: NextEditView) => v?.newText === " into total", 10_000);
    assert.deepEqual({ ...view, latencyMs: 0 }, { uri: editor.document.uri.toString(), line: 2, oldText: "", newText: " into total", hint: "Tab to jump to line 3 · Esc to dismiss", ghost: false, latencyMs: 0 });

    const renamed = source.replace("let count", "let total");
    const last: CompletionBody = prompts().at(-1)!;
    const own =
      `<|file_sep|>${name}.diff\noriginal:\n  let count = 0;\nupdated:\n  let total = 0;\n` +
      `<|file_sep|>original/${name}\n${source}` +
      `<|file_sep|>current/${name}\n${renamed}` +
      `<|file_sep|>updated/${name}\n`;
    assert.ok(last.prompt.endsWith(own), last.prompt);
    // Before it, at most two of the user's recent edits in other files (earlier suites typed in some), in the same form.
    const others = last.prompt.slice(0, -own.length).split("<|file_sep|>").filter((b) => b !== "");
    assert.ok(others.length <= 2 && others.every((b) => /^[^\n]+\.diff\noriginal:\n[\s\S]*updated:\n/.test(b) && !b.startsWith(`${name}.diff`)), last.prompt);
    assert.deepEqual({ model: last.model, stream: last.stream, stop: last.stop, temperature: last.temperature }, { model: "sweep-next-edit", stream: true, stop: ["<|file_sep|>", "</s>"], temperature: 0 });

    // Tab to each suggestion and Tab to accept it, until none is left: the file is then the model's rewrite.
    for (let i = 0; i < 6 && api.nextEdit.shown(); i++) {
      await vscode.commands.executeCommand("wisp.nextEdit.tab");
      await vscode.commands.executeCommand("wisp.nextEdit.tab");
    }
    assert.equal(editor.document.getText(), rewrite(source));
    assert.equal(api.nextEdit.shown(), undefined);
  });

  it("a change from disk (a checkout, a formatter run outside) is no edit of the user's: nothing is asked for it, and it is not sent as one", async () => {
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
    // The file as on disk again (the case before changed it, auto-save keeping some of it), then as the source: reloads too.
    await vscode.commands.executeCommand("workbench.action.files.revert");
    await writeFileSeen(file, source);
    const runs = api.nextEdit.predictions();
    const asked = prompts().length;
    await writeFileSeen(file, source.replace("  // add up every item\n", "  // add up every item, from disk\n"));
    await waitFor("the reload considered", () => api.nextEdit.predictions(), (n) => n > runs);
    assert.equal(prompts().length, asked, "no prompt for the reload");
    assert.equal(api.nextEdit.shown(), undefined);

    // The user's edit after it: its prompt carries that edit alone for this file.
    assert.ok(await editor.edit((e) => e.replace(new vscode.Range(4, 4, 4, 9), "total")));
    await waitFor("the model's suggestion", () => api.nextEdit.shown(), (v?: NextEditView) => v !== undefined, 10_000);
    const diffs = prompts().at(-1)!.prompt.split("<|file_sep|>").filter((b) => b.startsWith(`${name}.diff\n`));
    assert.deepEqual(diffs, [`${name}.diff\noriginal:\n    count += item;\nupdated:\n    total += item;\n`]);
  });
});
