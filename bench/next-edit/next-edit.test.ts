// Runs inside the extension host (bundled by test/harness/build-vscode-tests.ts when
// bench/next-edit.bench.ts names this folder): the keystrokes are the editor's `type` command, the
// suggestion is the real controller's, read through WispApi's `nextEdit` probe.
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { WispApi } from "../../src/extension/extension";
import { ScriptedApi } from "../../test/harness/scripted-api";
import { activateWisp, connectWisp, resetWisp } from "../../test/vscode/support/wisp-extension";

const samples = Number(process.env.WISP_BENCH_SAMPLES ?? 60);
/** On and off take turns in this many blocks, so the host's drift hits both sides alike. */
const rounds = 3;
const workspace = process.env.WISP_TEST_WORKSPACE ?? "";
/**
 * The gap before the timed key, as in typing (keys 100-200 ms apart): back to back, the timed key
 * also waited for the workbench to draw the previous key's suggestion (about 15 ms here).
 */
const keyGapMs = Number(process.env.WISP_BENCH_KEY_GAP_MS ?? 120);
const pause = () => new Promise((done) => setTimeout(done, keyGapMs));

/** A file of `functions` functions like a real module's; each has a local `count` used three times. */
function moduleText(functions: number): string {
  const one = (i: number) => [`export function sum${i}(items: number[], scale = ${i}): number {`, "  let count = 0;", "  for (const item of items) {", "    // count the scaled items", "    count += item * scale + log(item);", "  }", '  const label = "count";', "  return label.length + count;", "}", ""];
  return Array.from({ length: functions }, (_, i) => one(i)).flat().join("\n");
}

export interface Row {
  readonly name: string;
  readonly lines: number;
  /** Keystroke -> the document change event, next edit off. */
  readonly off: number[];
  /** Keystroke -> the document change event, next edit on. */
  readonly change: number[];
  /** Keystroke -> the suggestion shown (decorations set, context key set), next edit on. */
  readonly shown: number[];
}

/** The model path against a scripted server that answers after a fixed delay. */
export interface ModelRow {
  readonly lines: number;
  readonly delayMs: number;
  /** Keystroke -> the model's request reaching the server (Date.now() resolution). */
  readonly request: number[];
  /** Keystroke -> the model's suggestion shown. */
  readonly shown: number[];
}

/** The scripted model's delay before it answers: the time a fast next-edit model takes. */
const modelDelayMs = 100;
const modelName = "sweep-next-edit";

/**
 * What the scripted model makes of the window Sweep's prompt carries: the comment below the
 * renamed declaration gets the new name, an edit no local rule would propose, so the suggestion
 * shown says which keystroke's answer it is.
 */
function modelRewrite(prompt: string): string {
  const current = prompt.indexOf("\n", prompt.indexOf("<|file_sep|>current/")) + 1;
  const lines = prompt.slice(current, prompt.indexOf("<|file_sep|>updated/")).split("\n");
  const declared = lines.findIndex((line) => /let (?!count\b)\w+ = 0;/.test(line));
  const comment = lines.findIndex((line, i) => i > declared && line.includes("// count the scaled items"));
  if (declared >= 0 && comment >= 0) lines[comment] += ` (${/let (\w+)/.exec(lines[declared]!)![1]})`;
  return `${lines.join("\n")}<|file_sep|>`;
}

/** One way of making an edit in the file: where the cursor goes, what is typed, the suggestion it should bring. */
interface Scenario {
  readonly name: string;
  /** The selection to type over (anchor and active), in the middle of the file. */
  readonly select: (middle: number) => vscode.Selection;
  /** Typed key by key; the last key is the timed one. */
  readonly keys: string;
  readonly expected: string;
}

const scenarios: Scenario[] = [
  // `middle` is the first line of the middle function.
  { name: "rename a local on its declaration", select: (m) => new vscode.Selection(m + 1, 6, m + 1, 11), keys: "total", expected: "total" },
  { name: "repeated call change log(item) -> log(item, b)", select: (m) => new vscode.Selection(m + 4, 36, m + 4, 36), keys: ", b", expected: "b)" },
];

/** Resolves at the first turn of the event loop where `ready()` holds, with the time then. */
async function when(ready: () => boolean, timeoutMs = 5_000): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const now = performance.now();
    if (ready()) return now;
    if (now > deadline) throw new Error("timed out");
    await new Promise((done) => setImmediate(done));
  }
}

describe("benchmark: next-edit suggestion latency (local predictor)", function () {
  this.timeout(600_000);
  let api: WispApi;
  const config = vscode.workspace.getConfiguration();
  const files: string[] = [];

  before(async () => {
    api = await activateWisp();
    // Ghost text off: no completion requests compete for the extension host.
    await config.update("wisp.completion.enabled", false, vscode.ConfigurationTarget.Global);
  });
  const rows: Row[] = [];
  const modelRows: ModelRow[] = [];
  after(async () => {
    for (const key of ["wisp.completion.enabled", "wisp.nextEdit.enabled", "wisp.nextEdit.model"]) await config.update(key, undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
    for (const file of files) rmSync(file, { force: true });
    const out = process.env.WISP_BENCH_OUT;
    if (out) writeFileSync(out, JSON.stringify({ samples, rows, modelRows }));
  });

  async function open(functions: number): Promise<{ editor: vscode.TextEditor; middle: number; original: string }> {
    const file = join(workspace, `next-edit-bench-${functions}.ts`);
    const original = moduleText(functions);
    writeFileSync(file, original);
    files.push(file);
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
    return { editor, middle: Math.floor(functions / 2) * 10, original };
  }

  /**
   * Types `keys` over the selection, times the last keystroke to the change event and (when on)
   * to the suggestion that follows it, then undoes it all.
   */
  async function sample(editor: vscode.TextEditor, selection: vscode.Selection, scenario: Scenario, original: string, on: boolean): Promise<{ change: number; shown: number }> {
    editor.selection = selection;
    for (const key of scenario.keys.slice(0, -1)) await vscode.commands.executeCommand("type", { text: key });
    if (on && scenario.keys.length > 1) await when(() => api.nextEdit.shown() !== undefined);
    await pause();
    let changedAt = 0;
    const listener = vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document === editor.document && changedAt === 0) changedAt = performance.now();
    });
    const start = performance.now();
    const typed = vscode.commands.executeCommand("type", { text: scenario.keys.at(-1) });
    const shownAt = on ? await when(() => api.nextEdit.shown()?.newText.endsWith(scenario.expected) === true) : 0;
    await when(() => changedAt > 0);
    await typed;
    listener.dispose();
    for (let i = 0; i < 10 && editor.document.getText() !== original; i++) await vscode.commands.executeCommand("undo");
    if (editor.document.getText() !== original) throw new Error("undo did not restore the file");
    return { change: changedAt - start, shown: shownAt - start };
  }

  it("measures keystroke -> suggestion shown against keystroke -> change event with next edit off", async () => {
    for (const functions of [10, 200]) {
      const { editor, middle, original } = await open(functions);
      for (const scenario of scenarios) {
        const row = { name: scenario.name, lines: editor.document.lineCount, off: [] as number[], change: [] as number[], shown: [] as number[] };
        const selection = scenario.select(middle);
        // Warm-up: the first runs load code and fill caches; users pay that once.
        for (let i = 0; i < 5; i++) await sample(editor, selection, scenario, original, true);
        for (let r = 0; r < rounds; r++) {
          for (const on of [false, true]) {
            await config.update("wisp.nextEdit.enabled", on, vscode.ConfigurationTarget.Global);
            for (let i = 0; i < Math.ceil(samples / rounds); i++) {
              const { change, shown } = await sample(editor, selection, scenario, original, on);
              if (on) row.change.push(change), row.shown.push(shown);
              else row.off.push(change);
            }
          }
        }
        rows.push(row);
      }
      await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
    }
  });

  /**
   * Renames the local on its declaration with the model set: the last key is timed to the
   * model's request reaching the server and to the model's suggestion shown (the previous key's
   * suggestion is on screen first, as when the user types on while one is shown).
   */
  async function modelSample(editor: vscode.TextEditor, selection: vscode.Selection, server: ScriptedApi, original: string): Promise<{ request: number; shown: number }> {
    editor.selection = selection;
    for (const key of "tota") await vscode.commands.executeCommand("type", { text: key });
    await when(() => api.nextEdit.shown()?.newText.endsWith("(tota)") === true);
    await pause();
    const sent = server.textRequests.length;
    const [start, wallStart] = [performance.now(), Date.now()];
    const typed = vscode.commands.executeCommand("type", { text: "l" });
    const shownAt = await when(() => api.nextEdit.shown()?.newText.endsWith("(total)") === true);
    await typed;
    const request = server.textRequests.slice(sent).find((c) => c.body.prompt.includes("let total = 0;"));
    for (let i = 0; i < 10 && editor.document.getText() !== original; i++) await vscode.commands.executeCommand("undo");
    if (editor.document.getText() !== original) throw new Error("undo did not restore the file");
    return { request: request ? request.at - wallStart : Number.NaN, shown: shownAt - start };
  }

  it("measures keystroke -> the model's suggestion shown against a scripted model's fixed delay", async () => {
    const server = await ScriptedApi.start({ key: "sk-wisp-bench", models: [modelName], complete: (body) => ({ chunks: [modelRewrite(body.prompt)], delayMs: modelDelayMs }) });
    try {
      // The status bar reads "ready" only with ghost text on: on to connect, off again to measure.
      await config.update("wisp.completion.enabled", true, vscode.ConfigurationTarget.Global);
      await connectWisp(api, server.baseUrl, "sk-wisp-bench");
      await config.update("wisp.completion.enabled", false, vscode.ConfigurationTarget.Global);
      await config.update("wisp.nextEdit.enabled", true, vscode.ConfigurationTarget.Global);
      await config.update("wisp.nextEdit.model", modelName, vscode.ConfigurationTarget.Global);
      for (const functions of [10, 200]) {
        const { editor, middle, original } = await open(functions);
        const selection = scenarios[0]!.select(middle);
        const row: ModelRow = { lines: editor.document.lineCount, delayMs: modelDelayMs, request: [], shown: [] };
        for (let i = 0; i < 3; i++) await modelSample(editor, selection, server, original);
        for (let i = 0; i < samples; i++) {
          const { request, shown } = await modelSample(editor, selection, server, original);
          row.request.push(request), row.shown.push(shown);
        }
        modelRows.push(row);
        await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
      }
    } finally {
      await resetWisp();
      await server.close();
    }
  });
});
