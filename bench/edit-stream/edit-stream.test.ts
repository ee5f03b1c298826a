// Runs inside the extension host (bundled by test/harness/build-vscode-tests.ts when
// bench/edit-stream.bench.ts names this folder): the extension and this measurement share one
// thread, so a timer that fires late here is a long task of the extension host.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { WispApi } from "../../src/extension/extension";
import { startScriptedChatServer, tokenPieces, type ScriptedChatServer } from "../../test/harness/scripted-chat-server";
import { waitFor } from "../../test/harness/wait-for";
import { activateWisp, resetWisp, setBaseUrl } from "../../test/vscode/support/wisp-extension";

const lineCount = 300;
const runs = Number(process.env.WISP_BENCH_RUNS ?? 3);
const tokensPerSecond = Number(process.env.WISP_BENCH_TOKENS_PER_SECOND ?? 1500);
const longTaskMs = 50;
const tickMs = 5;

const original = Array.from({ length: lineCount }, (_, i) => `  const value${i} = compute(${i}, options.scale) + offset;`);
const rewritten = original.map((line, i) => (i % 3 === 0 ? line.replace("offset", `offsets[${i % 7}]`) : line));
const reply = `\`\`\`ts\n${rewritten.join("\n")}\n\`\`\`\n`;

/** Late timer ticks over `longTaskMs`: the event loop was blocked that long. */
class LongTasks {
  readonly blocked: number[] = [];
  private last = performance.now();
  private readonly timer = setInterval(() => {
    const now = performance.now();
    if (now - this.last - tickMs > longTaskMs) this.blocked.push(now - this.last - tickMs);
    this.last = now;
  }, tickMs);

  stop(): number[] {
    clearInterval(this.timer);
    return this.blocked;
  }
}

interface Result {
  name: string;
  latencies: number[];
  longTasks: number[];
  totalMs: number;
}

describe("benchmark: a 300-line selection rewritten while it streams", function () {
  this.timeout(600_000);
  let api: WispApi;
  let server: ScriptedChatServer;
  const file = join(process.env.WISP_TEST_WORKSPACE ?? "", "bench.ts");

  before(async () => {
    api = await activateWisp();
    server = await startScriptedChatServer({ key: "sk-bench" });
    await vscode.workspace.getConfiguration("wisp.completion").update("enabled", false, vscode.ConfigurationTarget.Global);
    await setBaseUrl(server.baseUrl);
    await vscode.commands.executeCommand("wisp.setApiKey", server.key);
  });
  after(async () => {
    await resetWisp();
    await server.close();
  });

  async function openFresh(): Promise<vscode.TextEditor> {
    writeFileSync(file, ["function f(options, offset) {", ...original, "}", ""].join("\n"));
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
    editor.selection = new vscode.Selection(1, 0, lineCount, 0);
    return editor;
  }

  /**
   * The floor: the same stream read with fetch, its complete lines appended to the editor, lines
   * that arrive while an edit is on its way going in with the next one (as Wisp does), timed from
   * the first of them arriving to the edit applied.
   */
  async function baseline(): Promise<Result> {
    const editor = await openFresh();
    const latencies: number[] = [];
    const tasks = new LongTasks();
    const started = performance.now();
    server.queue({ text: reply, tokensPerSecond });
    const response = await fetch(`${server.baseUrl}/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" }, body: JSON.stringify({ model: "scripted-chat", messages: [], stream: true }) });
    const decoder = new TextDecoder();
    let text = "";
    let written = 0;
    let line = 1;
    let buffered = "";
    let waitingSince: number | undefined;
    let writing: Promise<void> | undefined;
    const write = async (): Promise<void> => {
      while (waitingSince !== undefined) {
        const since = waitingSince;
        waitingSince = undefined;
        const complete = text.slice(0, text.lastIndexOf("\n") + 1);
        const added = complete.slice(written);
        written = complete.length;
        await editor.edit((edit) => edit.insert(new vscode.Position(line, 0), added), { undoStopBefore: false, undoStopAfter: false });
        line += added.split("\n").length - 1;
        latencies.push(performance.now() - since);
      }
      writing = undefined;
    };
    const reader = response.body!.getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      const arrived = performance.now();
      // Events can straddle reads: the part after the last blank line waits for the next read.
      const events = (buffered + decoder.decode(next.value, { stream: true })).split("\n\n");
      buffered = events.pop() ?? "";
      for (const event of events) {
        const data = event.replace(/^data: /, "");
        if (!data.startsWith("{")) continue;
        const piece = (JSON.parse(data) as { choices: { delta: { content?: string } }[] }).choices[0]?.delta.content ?? "";
        text += piece;
        if (piece.includes("\n")) waitingSince ??= arrived;
      }
      if (waitingSince !== undefined) writing ??= write();
    }
    await writing;
    const totalMs = performance.now() - started;
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
    return { name: "baseline: lines appended as they arrive", latencies, longTasks: tasks.stop(), totalMs };
  }

  async function wisp(): Promise<Result> {
    await openFresh();
    const before = api.edit.latencies().length;
    const tasks = new LongTasks();
    const started = performance.now();
    server.queue({ text: reply, tokensPerSecond });
    await vscode.commands.executeCommand("wisp.editSelection", { instruction: "use the offsets table" });
    await waitFor("the review", () => api.edit.sessions()[0]?.state, (state) => state === "reviewing");
    const totalMs = performance.now() - started;
    const longTasks = tasks.stop();
    const latencies = api.edit.latencies().slice(before);
    await vscode.commands.executeCommand("wisp.edit.reject");
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
    return { name: "Wisp edit: inline diff while streaming", latencies, longTasks, totalMs };
  }

  it("measures token arrival to decoration and long tasks", async () => {
    const results: Result[] = [];
    for (let run = 0; run < runs; run++) results.push(await baseline(), await wisp());
    const out = process.env.WISP_BENCH_OUT;
    if (out) writeFileSync(out, JSON.stringify({ lineCount, tokens: tokenPieces(reply).length, tokensPerSecond, results }));
  });
});
