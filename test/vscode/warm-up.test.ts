import * as assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { WispApi } from "../../src/extension/extension";
import { ScriptedApi, type ScriptedCompletion } from "../harness/scripted-api";
import { waitFor } from "../harness/wait-for";
import { activateWisp, connectWisp, resetWisp } from "./support/wisp-extension";

/** Opening a file or jumping far in it warms the server's prompt cache there (a scripted server records it). */
describe("Prompt warm-up (real VS Code, scripted server)", function () {
  this.timeout(60_000);
  const key = "sk-wisp-warm-up";
  let api: WispApi;
  let server: ScriptedApi;
  const files: string[] = [];

  before(async () => {
    api = await activateWisp();
    server = await ScriptedApi.start({ key, models: ["wisp-scripted"], complete: () => " + 1;" });
    await connectWisp(api, server.baseUrl, key);
  });
  afterEach(async () => {
    server.failWarmUpsWith(undefined);
    // Reverted first: auto save (on in the browser) could write a typed file back after it is deleted below.
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    for (const file of files.splice(0)) rmSync(file, { force: true });
  });
  after(async () => {
    await resetWisp();
    await server?.close();
  });

  /** Opens a new plain-text file (no context from other files in its prompt) with the cursor at `offset`. */
  async function open(name: string, text: string, offset: number): Promise<vscode.TextEditor> {
    const file = join(process.env.WISP_TEST_WORKSPACE!, name);
    files.push(file);
    writeFileSync(file, text);
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
    const at = editor.document.positionAt(offset);
    editor.selection = new vscode.Selection(at, at);
    return editor;
  }

  const nextWarmUp = (since: number) => waitFor("a warm-up request", () => server.warmUps[since], (w): w is ScriptedCompletion => w !== undefined, 10_000) as Promise<ScriptedCompletion>;

  it("opening a file warms the prompt at the cursor, shows nothing, and the first completion there extends it", async () => {
    const text = "total = price * quantity\nsubtotal = \nprint(total)\n";
    const cursor = text.indexOf("\nprint");
    const since = server.warmUps.length;
    const outcomes = api.completionOutcomes().length;
    const editor = await open("warm-open.txt", text, cursor);
    const warm = await nextWarmUp(since);
    assert.equal(warm.body.max_tokens, 0);
    assert.equal(warm.body.prompt, text.slice(0, cursor));
    assert.equal(warm.body.suffix, text.slice(cursor));
    assert.equal(api.completionOutcomes().length, outcomes, "a warm-up is no completion outcome");

    const requests = server.textRequests.length;
    await vscode.commands.executeCommand("type", { text: "x" });
    const request = await waitFor("the completion request", () => server.textRequests[requests], (r) => r !== undefined, 10_000);
    assert.ok(request!.body.prompt.startsWith(warm.body.prompt), "the completion's prompt extends the warmed one");
    assert.equal(editor.document.lineAt(1).text, "subtotal = x");
  });

  it("a jump far in the file warms there; a failing warm-up is no error", async () => {
    server.failWarmUpsWith(500);
    const outcomes = api.completionOutcomes().length;
    const text = Array.from({ length: 200 }, (_, i) => `line ${i} = value ${i}`).join("\n");
    const editor = await open("warm-jump.txt", text, 0);
    const since = server.warmUps.length;
    await nextWarmUp(since);
    const far = editor.document.lineAt(150).range.end;
    editor.selection = new vscode.Selection(far, far);
    const warm = await nextWarmUp(since + 1);
    assert.equal(warm.body.prompt, text.slice(0, editor.document.offsetAt(far)));
    // A completion there waits for the warm-up to settle before it is sent: once it arrives, the
    // warm-up's failure has been handled, and any error it caused would be showing.
    const requests = server.textRequests.length;
    await vscode.commands.executeCommand("type", { text: "x" });
    await waitFor("the completion after the warm-up", () => server.textRequests[requests], (r) => r !== undefined, 10_000);
    // The status bar is busy while that completion is in flight (long enough to see on a loaded machine): judged once it is done.
    await waitFor("the completion's outcome", () => api.completionOutcomes().length, (n) => n > outcomes, 10_000);
    await waitFor("the status bar after the completion", () => api.statusBar().state, (state) => state !== "busy", 10_000);
    assert.equal(api.statusBar().state, "ready", "the status bar shows no error");
    assert.ok(!api.completionOutcomes().slice(outcomes).some((o) => o.kind === "error"), "no error outcome");
  });

  it("user settings: a file whose language has editor.inlineSuggest.enabled off gets no warm-up (its text is not sent); another file still does", async () => {
    const editorSettings = vscode.workspace.getConfiguration("editor", { languageId: "markdown" });
    await editorSettings.update("inlineSuggest.enabled", false, vscode.ConfigurationTarget.Global, true);
    try {
      const since = server.warmUps.length;
      const notes = "# Notes\n\nthe markdown file's own words\n";
      await open("warm-off.md", notes, notes.length);
      // Longer than the rest after which a file just opened is warmed (300 ms): here it would have been sent.
      await new Promise((done) => setTimeout(done, 1500));
      const text = "total = price * quantity\n";
      await open("warm-on.txt", text, 8);
      const warm = await nextWarmUp(since);
      assert.equal(warm.body.prompt, text.slice(0, 8), "the first warm-up is the plain-text file's");
      assert.ok(!server.warmUps.slice(since).some((w) => String(w.body.prompt).includes("own words")), "nothing of the markdown file went to the server");
    } finally {
      await editorSettings.update("inlineSuggest.enabled", undefined, vscode.ConfigurationTarget.Global, true);
    }
  });

  it("after a quick switch of server, the warm-up names the new server's model, not one the previous server listed late", async () => {
    const slow = await ScriptedApi.start({ key, models: ["previous-coder"], modelsDelayMs: 2000 });
    const next = await ScriptedApi.start({ key, models: ["next-coder"] });
    try {
      // Both changes at once: the check of the slow server is still waiting for its list when the next one answers.
      void vscode.workspace.getConfiguration("wisp").update("baseUrl", slow.baseUrl, vscode.ConfigurationTarget.Global);
      await waitFor("the slow server asked for its models", () => slow.requests.length, (n) => n > 0, 10_000);
      await vscode.workspace.getConfiguration("wisp").update("baseUrl", next.baseUrl, vscode.ConfigurationTarget.Global);
      await waitFor("status ready", () => api.statusBar().state, (state) => state === "ready", 10_000);
      // The slow list arrives after the next server's.
      await new Promise((done) => setTimeout(done, 3000));
      await open("warm-switch.txt", "total = price * quantity\n", 8);
      const warm = await waitFor("a warm-up on the next server", () => next.warmUps[0], (w): w is ScriptedCompletion => w !== undefined, 10_000);
      assert.equal(warm!.body.model, "next-coder");
    } finally {
      await connectWisp(api, server.baseUrl, key);
      await slow.close();
      await next.close();
    }
  });
});
