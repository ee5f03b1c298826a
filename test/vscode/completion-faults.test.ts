import * as assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { CompletionOutcome } from "../../src/core/completion/types";
import type { WispApi } from "../../src/extension/extension";
import { ScriptedApi, type ScriptedFault } from "../harness/scripted-api";
import { waitFor } from "../harness/wait-for";
import { fromAnotherExtension } from "./support/host-rejections";
import { activateWisp, connectWisp, resetWisp } from "./support/wisp-extension";

type Outcome = CompletionOutcome;

/**
 * Ghost text against a server that fails in the ways servers do (down, 500, 429 with Retry-After,
 * a malformed stream, a stream that stalls): one readable error in the status bar (never a
 * notification per keystroke), automatic requests paused instead of failing on every key, no
 * unhandled rejection in the extension host, and completions back by themselves once the server is.
 */
describe("Ghost text when the server fails (real VS Code, scripted server)", function () {
  this.timeout(90_000);
  const key = "sk-wisp-faults";
  /** The scripted model completes `taxa…` to `taxable(price, rate);`. */
  const complete = (body: { prompt: string }) => (body.prompt.endsWith("taxabl") ? "e(price, rate);" : "ble(price, rate);");
  let api: WispApi;
  let server: ScriptedApi;
  let file: string | undefined;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  before(async () => {
    // The tests run in the extension host itself: the extension's stray rejections land here too.
    process.on("unhandledRejection", onUnhandled);
    api = await activateWisp();
    server = await ScriptedApi.start({ key, models: ["wisp-scripted"], complete });
    await connectWisp(api, server.baseUrl, key);
    await vscode.workspace.getConfiguration("wisp").update("completion.timeoutSeconds", timeoutSeconds, vscode.ConfigurationTarget.Global);
  });
  afterEach(async () => {
    server.failWith(undefined);
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
    if (file) rmSync(file, { force: true });
  });
  after(async () => {
    process.off("unhandledRejection", onUnhandled);
    await vscode.workspace.getConfiguration("wisp").update("completion.timeoutSeconds", undefined, vscode.ConfigurationTarget.Global);
    await resetWisp();
    await server?.close();
  });

  let index = 0;
  /** A new file per case, so no cached answer from an earlier case can stand in for a request. */
  async function openCase(): Promise<{ editor: vscode.TextEditor; prefix: string }> {
    index++;
    const prefix = `const tax${index} = taxa`;
    file = join(process.env.WISP_TEST_WORKSPACE!, `faults-${index}.ts`);
    writeFileSync(file, `${prefix}\n`);
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
    const end = editor.document.lineAt(0).range.end;
    editor.selection = new vscode.Selection(end, end);
    return { editor, prefix };
  }

  /** The first outcome after `since` that is `wanted`; a timeout names every outcome there was. */
  const outcomeAfter = async (since: number, wanted: (o: Outcome) => boolean, what: string, timeoutMs = 20_000) =>
    (await waitFor(what, () => api.completionOutcomes().slice(since), (list) => list.some(wanted), timeoutMs)).find(wanted)!;

  /** wisp.completion.timeoutSeconds for the suite: a stall is told apart from a slow answer this much later. */
  const timeoutSeconds = 4;
  const cases: [name: string, fault: ScriptedFault | "down", status: RegExp][] = [
    ["answers 500", { status: 500 }, /error/i],
    ["answers 429 with Retry-After", { status: 429, retryAfterSeconds: 3 }, /rate|limit|429/i],
    ["sends a malformed stream", "malformed-stream", /not what|valid JSON|malformed/i],
    ["is down", "down", /unreachable/i],
    ["stalls mid-stream", "stall-mid-stream", new RegExp(`did not respond within ${timeoutSeconds} s|unreachable`, "i")],
  ];

  for (const [name, fault, status] of cases) {
    it(`${name}: one error in the status bar, requests paused, completions back by themselves`, async () => {
      const { editor, prefix } = await openCase();
      const failedBefore = unhandled.length;
      if (fault === "down") await server.goDown();
      else server.failWith(fault);
      const requestsBefore = server.textRequests.length;

      // Ask explicitly (Alt+\): a failure is reported, not thrown at the user.
      let since = api.completionOutcomes().length;
      await vscode.commands.executeCommand("editor.action.inlineSuggest.trigger");
      const error = await outcomeAfter(since, (o) => o.kind === "error", "an error outcome", 30_000);
      assert.equal(error.kind, "error");
      const view = await waitFor("the status bar says what is wrong", () => api.statusBar(), (v) => status.test(`${v.text} ${v.tooltip}`));
      assert.match(`${view.text} ${view.tooltip}`, status);
      if (fault !== "down") assert.ok(server.textRequests.length > requestsBefore, "the failing request reached the server");

      // Every stalled request has failed by now (VS Code may have asked twice, and each failure
      // extends the pause): the pause the next keystroke reports is the last one.
      await waitFor("the stalled streams closed by the client", () => server.stalledStreams, (n) => n === 0, 30_000);

      // Typing on while it fails: automatic requests pause instead of failing on every key.
      const requestsWhileFailing = server.textRequests.length;
      since = api.completionOutcomes().length;
      await vscode.commands.executeCommand("type", { text: "b" });
      const paused = await outcomeAfter(since, (o) => o.kind === "backoff" || o.kind === "error", "the next keystroke's outcome");
      assert.equal(paused.kind, "backoff", `paused, not another request: ${JSON.stringify(paused)}`);
      assert.equal(server.textRequests.length, requestsWhileFailing, "no request while paused");

      // The server is fine again: once the pause is over, the next keystroke gets ghost text.
      if (fault === "down") await server.comeBack();
      else server.failWith(undefined);
      if (paused.kind === "backoff") await new Promise((done) => setTimeout(done, paused.retryInMs + 300));
      since = api.completionOutcomes().length;
      await vscode.commands.executeCommand("type", { text: "l" });
      const shown = await outcomeAfter(since, (o) => o.kind === "shown", "ghost text after the server is back", 30_000);
      assert.equal(shown.kind === "shown" && shown.text, "e(price, rate);", "the rest of the scripted answer after `taxabl`");
      assert.equal(editor.document.lineAt(0).text, `${prefix}bl`);
      await waitFor("status ready", () => api.statusBar(), (v) => v.state === "ready", 30_000);
      assert.deepEqual(unhandled.slice(failedBefore).filter((reason) => !fromAnotherExtension(reason)), [], "no unhandled rejection in the extension host");
    });
  }
});
