import * as assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { CompletionOutcome } from "../../src/core/completion/types";
import type { WispApi } from "../../src/extension/extension";
import { ScriptedApi, type CompletionBody, type ScriptedAnswer } from "../harness/scripted-api";
import { waitFor } from "../harness/wait-for";
import { outcomesQuiet } from "./support/completion-outcomes";
import { activateWisp, connectWisp, resetWisp } from "./support/wisp-extension";

type Shown = Extract<CompletionOutcome, { kind: "shown" }>;

/**
 * The editor's auto-closing (default settings) against a scripted server whose answers are known:
 * what the user sees and what Tab leaves in the document.
 */
describe("Ghost text around auto-closed brackets (real VS Code, scripted server)", function () {
  this.timeout(60_000);
  const key = "sk-wisp-brackets";
  /** Long enough that typing through the `type` command never pauses that long. At 300 ms a loaded
   * machine let the debounce of `{` run out in the extension host between two keys the test saw
   * under 300 ms apart (2 requests with "0 pauses" in 1 of 4 runs with both cores busy). */
  const debounceMs = 1000;
  /**
   * A gap after `ch` the test counts as a pause: half the wait the extension makes after it (the
   * debounce inside a word, a third of it after any other key, as between words), so that a slow
   * extension host is on the side of more requests allowed, never of a false failure. (Counted at
   * half the debounce after `{` too, `{`'s request went out 333 ms on, and CI saw "2 requests with
   * 0 pauses".)
   */
  const pauseAfter = (ch: string) => (/[\p{L}\p{N}_$]/u.test(ch) ? debounceMs : debounceMs / 3) / 2;
  let api: WispApi;
  let server: ScriptedApi;
  let file: string | undefined;

  before(async () => {
    api = await activateWisp();
    server = await ScriptedApi.start({ key, models: ["wisp-scripted"] });
    await vscode.workspace.getConfiguration("wisp.completion").update("debounceMs", debounceMs, vscode.ConfigurationTarget.Global);
    await connectWisp(api, server.baseUrl, key);
  });
  afterEach(async () => {
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
    if (file) rmSync(file, { force: true });
  });
  after(async () => {
    await vscode.workspace.getConfiguration("wisp.completion").update("debounceMs", undefined, vscode.ConfigurationTarget.Global);
    await resetWisp();
    await server?.close();
  });

  /** Opens a new TypeScript file with `text`, the cursor at █. */
  async function open(name: string, text: string): Promise<vscode.TextEditor> {
    file = join(process.env.WISP_TEST_WORKSPACE!, name);
    writeFileSync(file, text.replace("█", ""));
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
    const at = editor.document.positionAt(text.indexOf("█"));
    editor.selection = new vscode.Selection(at, at);
    return editor;
  }

  /** Types like a user (the `type` command applies auto-closing); returns how many keys came after a pause. */
  async function type(text: string): Promise<number> {
    let pauses = 0;
    let last = performance.now();
    let previous = "";
    for (const ch of text) {
      await vscode.commands.executeCommand("type", { text: ch });
      const now = performance.now();
      if (now - last >= pauseAfter(previous)) pauses++;
      last = now;
      previous = ch;
    }
    return pauses;
  }

  function nextShown(since: number, wanted: (o: Shown) => boolean = () => true): Promise<Shown> {
    const find = () => api.completionOutcomes().slice(since).find((o): o is Shown => o.kind === "shown" && wanted(o));
    return waitFor("ghost text", find, (o) => o !== undefined, 20_000) as Promise<Shown>;
  }

  async function accept(editor: vscode.TextEditor, expected: string): Promise<void> {
    // Once shown, the ghost text is on screen a moment later (a Tab pressed at once was lost in 1 of several runs).
    await outcomesQuiet(api, 500);
    // Tab again while it has changed nothing: on a loaded machine the text can be drawn later still.
    const before = editor.document.getText();
    await waitFor("the document after Tab", async () => {
      if (editor.document.getText() === before) await vscode.commands.executeCommand("editor.action.inlineSuggest.commit");
      return editor.document.getText();
    }, (t) => t === expected);
  }

  const answers = (rules: Array<[suffixOfPrompt: string, answer: ScriptedAnswer]>) => (body: CompletionBody) =>
    rules.find(([end]) => body.prompt.endsWith(end))?.[1] ?? "";

  it("typing a suggestion's `(`: the rest stays shown over the auto-inserted `)`, no request, Tab completes the line", async () => {
    server.answerWith(answers([["const tax = ", "Math.round(subtotal(items) * 0.2);"]]));
    const editor = await open("brackets-through.ts", "function total(items: number[]) {\n    █\n}\n");
    let since = api.completionOutcomes().length;
    await type("const tax = ");
    await nextShown(since, (o) => o.text === "Math.round(subtotal(items) * 0.2);");
    const requests = server.textRequests.length;
    since = api.completionOutcomes().length;
    await type("Math.round(");
    assert.equal(editor.document.lineAt(1).text, "    const tax = Math.round()", "the editor auto-closed the bracket");
    const rest = await nextShown(since, (o) => o.text === "subtotal(items) * 0.2);");
    assert.deepEqual([rest.source, rest.replace], ["type-through", 1]);
    assert.equal(server.textRequests.length, requests, "no request for the typed part");
    await accept(editor, "function total(items: number[]) {\n    const tax = Math.round(subtotal(items) * 0.2);\n}\n");
  });

  it("an answer that closes the auto-closed `(` replaces it: no `);)` after Tab", async () => {
    server.answerWith(answers([["return scale(", "total, factor);"]]));
    const editor = await open("brackets-overlap.ts", "function f(total: number, factor: number) {\n    █\n}\n");
    const requests = server.textRequests.length;
    const since = api.completionOutcomes().length;
    const pauses = await type("return scale(");
    assert.equal(editor.document.lineAt(1).text, "    return scale()");
    const shown = await nextShown(since, (o) => o.text === "total, factor);");
    assert.deepEqual([shown.source, shown.replace], ["network", 1]);
    await accept(editor, "function f(total: number, factor: number) {\n    return scale(total, factor);\n}\n");
    const sent = server.textRequests.length - requests;
    assert.ok(sent >= 1 && sent <= 1 + pauses, `${sent} requests for one line typed with ${pauses} pauses`);
  });

  it("Enter inside auto-closed braces: the whole body is suggested, and Tab leaves it closed", async () => {
    const body = "if (values.length === 0) {\n        return 0;\n    }\n    return values.reduce((a, b) => a + b, 0) / values.length;\n}\n";
    server.answerWith(answers([["number {\n    ", body]]));
    const editor = await open("brackets-block.ts", "export function average(values: number[]): number █\n");
    const requests = server.textRequests.length;
    const since = api.completionOutcomes().length;
    const pauses = await type("{\n");
    assert.equal(editor.document.getText(), "export function average(values: number[]): number {\n    \n}\n", "the editor's own `}` is on the next line");
    const shown = await nextShown(since, (o) => o.multiline);
    assert.equal(shown.text, body.slice(0, body.lastIndexOf("\n}")));
    await accept(editor, `export function average(values: number[]): number {\n    ${body}`);
    const sent = server.textRequests.length - requests;
    const prompts = server.textRequests.slice(requests).map((r) => r.body.prompt.slice(-24));
    assert.ok(sent >= 1 && sent <= 1 + pauses, `${sent} requests with ${pauses} pauses, prompts ending ${JSON.stringify(prompts)}`);
  });

  it("an answer far longer than the block: 8 lines shown, and the stream cut as soon as they are in", async () => {
    // Streamed a line at a time, 20 ms apart. Lines are judged whole: the tenth piece's newline
    // ends the ninth line, past the limit of 8. After it the server sends nothing more until the
    // client closes the stream, however long that takes.
    const lines = Array.from({ length: 50 }, (_, i) => `key${i}: ${i},`);
    const block = "const o = {\n    ";
    const decided = 10;
    server.answerWith(answers([[block, { chunks: lines.map((line, i) => (i === 0 ? line : `\n    ${line}`)), delayMs: 20, holdAfter: decided }]]));
    const editor = await open("brackets-long.ts", "const o = █\n");
    const requests = server.textRequests.length;
    const since = api.completionOutcomes().length;
    await type("{\n");
    const shown = await nextShown(since, (o) => o.multiline);
    assert.equal(shown.text, lines.slice(0, 8).join("\n    "));
    const request = server.textRequests.slice(requests).find((r) => r.body.prompt.endsWith(block))!;
    await waitFor("the stream closed", () => request.stream, (s) => s.cut, 15_000);
    // Closed on what it had: had the client waited for more, the server would have sent the rest.
    assert.equal(request.stream.sent, decided, `${request.stream.sent} of ${lines.length} pieces sent before the client closed the stream`);
    await accept(editor, `const o = {\n    ${lines.slice(0, 8).join("\n    ")}\n}\n`);
  });
});
