// Runs inside the extension host (bundled by test/harness/build-vscode-tests.ts when
// bench/agent-steps.bench.ts names this folder): the agent loop, its tools, the chat store and the
// chat view's posts run here for real; only the model is the scripted server, which records when
// each request arrived and when each answer's stream ended.
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import { join } from "node:path";
import * as vscode from "vscode";
import type { ToolStep } from "../../src/core/agent/agent-task";
import { chunkText } from "../../src/core/context/chunker";
import type { AssistantTurn } from "../../src/core/chat/conversation";
import type { WispApi } from "../../src/extension/extension";
import { startScriptedChatServer, type ScriptedChatServer, type ScriptedToolCall } from "../../test/harness/scripted-chat-server";
import { waitFor } from "../../test/harness/wait-for";
import { activateWisp, resetWisp, setBaseUrl, wispExtensionId } from "../../test/vscode/support/wisp-extension";
import { copySourceFiles } from "../workspace-files";
import { grepDirect, listDirect, readDirect, replaceDirect, timeRuns } from "./direct-work";

const fileCount = Number(process.env.WISP_BENCH_FILES ?? 5000);
const steps = Number(process.env.WISP_BENCH_STEPS ?? 40);
/** A grep reads the whole workspace: fewer runs keep the benchmark short. */
const grepSteps = Math.max(2, Math.round(steps / 2));
const taskSteps = 25;
/** Tasks whose start is timed, per row. */
const startTasks = Number(process.env.WISP_BENCH_STARTS ?? 12);
const workspace = process.env.WISP_TEST_WORKSPACE ?? "";
const folder = "bench-files";
const editTargets = ["bench-edit-target.js", "bench-direct-target.js"] as const;
/** Where files are created while the index is ready (outside the bench folder: the watcher sees them). */
const createdFolder = "bench-created";
const createdFiles = Number(process.env.WISP_BENCH_CREATED ?? 100);
const abs = (relative: string) => join(workspace, relative);

export interface StepRow {
  readonly name: string;
  /** The loop's own time per step: the next request's arrival - the tool call's answer end. */
  readonly agent: number[];
  /** The same work done directly. */
  readonly direct: number[];
}

export interface IndexUpdateRow {
  readonly files: number;
  /** The files written -> the last of them in the index. */
  readonly wallMs: number;
  /** The extension host's CPU time meanwhile. */
  readonly hostCpuMs: number;
  /** Reading and chunking the same files directly, per file. */
  readonly directMs: number[];
}

export interface StartRow {
  readonly name: string;
  /** Per task: Start (the chat view's send) -> its first request reaching the server. */
  readonly ms: number[];
}

/** The longest name used in a few files only: grep_search's literal, found in the same files every run. */
function rareName(files: readonly string[]): string {
  const seen = new Map<string, number>();
  for (const file of files) {
    for (const name of new Set(readFileSync(abs(file), "utf8").match(/\b[A-Za-z_][A-Za-z0-9_]{13,40}\b/g) ?? [])) seen.set(name, (seen.get(name) ?? 0) + 1);
  }
  return [...seen].filter(([, n]) => n >= 3 && n <= 5).sort((a, b) => b[0].length - a[0].length || (a[0] < b[0] ? -1 : 1))[0]![0];
}

/**
 * With WISP_BENCH_PROFILE (a folder), a CPU profile of the extension host while a row's task runs
 * (open the .cpuprofile in Chrome's DevTools): where the loop's own time goes.
 */
async function startProfile(name: string): Promise<() => Promise<void>> {
  const dir = process.env.WISP_BENCH_PROFILE;
  if (!dir) return async () => {};
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) => new Promise<unknown>((done, fail) => session.post(method, params, (error, result) => (error ? fail(error) : done(result))));
  await post("Profiler.enable");
  await post("Profiler.setSamplingInterval", { interval: 200 });
  await post("Profiler.start");
  return async () => {
    const { profile } = (await post("Profiler.stop")) as { profile: unknown };
    writeFileSync(join(dir, `${name.replace(/\W+/g, "-").slice(0, 40)}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  };
}

describe("benchmark: the agent loop's own time per step", function () {
  this.timeout(600_000);
  let api: WispApi;
  let server: ScriptedChatServer;
  let files: string[] = [];
  const setupMs = { copy: 0, index: 0 };
  const config = vscode.workspace.getConfiguration();

  before(async () => {
    api = await activateWisp();
    server = await startScriptedChatServer({ key: "sk-bench" });
    await config.update("wisp.completion.enabled", false, vscode.ConfigurationTarget.Global);
    // Each row is one task: more steps than the default limit.
    await config.update("wisp.agent.maxSteps", 200, vscode.ConfigurationTarget.Global);
    await setBaseUrl(server.baseUrl);
    await vscode.commands.executeCommand("wisp.setApiKey", server.key);
    await api.chat.fromView({ type: "setMode", mode: "agent" });
    // The view open, as a user watching the task has it: every step is posted to it.
    await vscode.commands.executeCommand("wisp.chat.focus");
    await waitFor("the chat view", () => api.chat.viewReady(), (ready) => ready);
    // The files are there before the index is built, as in a project the user opens: no file
    // watcher events for them (5,000 of those would keep the extension host busy for minutes).
    await config.update("files.watcherExclude", { [`**/${folder}/**`]: true }, vscode.ConfigurationTarget.Global);
    const nodeModules = join(vscode.extensions.getExtension(wispExtensionId)!.extensionPath, "node_modules");
    let started = performance.now();
    files = copySourceFiles(nodeModules, abs(folder), fileCount).files.map((f) => `${folder}/${f}`);
    setupMs.copy = performance.now() - started;
    // Grep answers from the workspace index, as users' would once it has the files: rebuilt by turning it off and on.
    await config.update("wisp.chat.workspaceContext", false, vscode.ConfigurationTarget.Global);
    await waitFor("the index off", () => api.chat.index(), (s) => s.state === "off");
    started = performance.now();
    await config.update("wisp.chat.workspaceContext", undefined, vscode.ConfigurationTarget.Global);
    const index = await waitFor("the workspace index", () => api.chat.index(), (s) => s.state === "ready", 300_000);
    setupMs.index = performance.now() - started;
    if (index.files < files.length * 0.9) throw new Error(`the index has ${index.files} files of ${files.length}`);
  });
  after(async () => {
    await api?.chat.fromView({ type: "setMode", mode: "ask" });
    for (const key of ["wisp.agent.maxSteps", "wisp.completion.enabled", "wisp.chat.workspaceContext", "files.watcherExclude"]) await config.update(key, undefined, vscode.ConfigurationTarget.Global);
    for (const path of [folder, createdFolder, ...editTargets]) rmSync(abs(path), { recursive: true, force: true });
    await resetWisp();
    await server?.close();
  });

  const lastAnswer = () => api.chat.state().chat.turns.filter((t): t is AssistantTurn => t.role === "assistant").at(-1);

  /** Runs one task of these calls (then an answer); per call, the loop's own time, and the task's totals. */
  async function task(calls: readonly ScriptedToolCall[]): Promise<{ overheads: number[]; totalMs: number; modelMs: number; startMs: number }> {
    await api.chat.fromView({ type: "newChat" });
    const first = server.timeline.length;
    server.queue(...calls.map((call) => ({ toolCalls: [call] })), { text: "Done." });
    const started = performance.now();
    await api.chat.fromView({ type: "send", text: "Benchmark task" });
    const totalMs = performance.now() - started;
    const times = await waitFor("every answer sent", () => server.timeline.slice(first), (t) => t.length === calls.length + 1 && t.every((x) => x.answeredAt !== undefined));
    const turn = lastAnswer()!;
    const failed = (turn.agent?.steps ?? []).filter((s): s is ToolStep => s.kind === "tool" && s.status !== "done");
    if (turn.agent?.end !== "done" || failed.length > 0) throw new Error(`the task did not go as scripted: ${turn.agent?.end}, ${JSON.stringify(failed[0])}`);
    return {
      overheads: calls.map((_, i) => times[i + 1]!.receivedAt - times[i]!.answeredAt!),
      totalMs,
      // Send -> the first request: the task's setup (rules, checkpoint, ignore rules, tool schemas).
      startMs: times[0]!.receivedAt - started,
      modelMs: times.reduce((sum, t) => sum + (t.answeredAt! - t.receivedAt), 0),
    };
  }

  it("measures each tool's step against the same work done directly, and a 25-step task", async () => {
    // A mid-size source file (about 10 KB, under wisp.agent.maxOutputChars) to read.
    const sized = files.filter((f) => /^[\w.-]+\.(js|ts)$/.test(f.split("/").pop()!.replace(/^\d+-/, ""))).map((f) => ({ f, size: statSync(abs(f)).size }));
    const mid = sized.sort((a, b) => Math.abs(a.size - 10_000) - Math.abs(b.size - 10_000))[0]!.f;
    const other = sized[1]!.f;
    const midLines = readFileSync(abs(mid), "utf8").split("\n").length;
    // Two copies with a marker line to replace back and forth, so every replacement finds exactly one
    // match; outside the bench folder, so the file watcher and the index see every write, as users' do.
    const [target, directTarget] = editTargets;
    for (const copy of [target, directTarget]) writeFileSync(abs(copy), `${readFileSync(abs(mid), "utf8")}\nexport const benchMarker = "alpha";\n`);
    const markers = ['benchMarker = "alpha"', 'benchMarker = "beta"'] as const;
    let marker = 0;
    const replace = (): ScriptedToolCall => {
      const call = { name: "replace_string_in_file", arguments: { path: target, old_string: markers[marker], new_string: markers[1 - marker] } };
      marker = 1 - marker;
      return call;
    };
    const name = rareName(files);
    const regex = `\\b${name}\\s*[(=:]`;
    // Calls alternate between two equivalent argument sets: the same call three times in a row stops a task.
    const read = (i: number): ScriptedToolCall => ({ name: "read_file", arguments: i % 2 ? { path: mid, start_line: 1 } : { path: mid } });
    const grepLiteral = (i: number): ScriptedToolCall => ({ name: "grep_search", arguments: i % 2 ? { query: name, is_regexp: false } : { query: name } });
    const grepRegex = (i: number): ScriptedToolCall => ({ name: "grep_search", arguments: { query: regex, is_regexp: true, ...(i % 2 ? { include: "**/*" } : {}) } });
    const lists = [`${folder}/pkg0/dir0`, `${folder}/pkg1/dir1`];
    const list = (i: number): ScriptedToolCall => ({ name: "list_dir", arguments: { path: lists[i % 2]! } });
    const calls = (n: number, make: (i: number) => ScriptedToolCall) => Array.from({ length: n }, (_, i) => make(i));

    // The folder for created files, made long before they are: its own event is handled by then.
    mkdirSync(abs(createdFolder), { recursive: true });
    // Warm-up: the first use of each tool loads code and fills caches; users pay that once.
    await task([read(0), grepLiteral(0), replace(), list(0)]);

    const rows: StepRow[] = [];
    const measure = async (rowName: string, n: number, make: (i: number) => ScriptedToolCall, direct: (i: number) => Promise<unknown>) => {
      const profile = await startProfile(rowName);
      const { overheads } = await task(calls(n, make));
      await profile();
      rows.push({ name: rowName, agent: overheads, direct: await timeRuns(n, direct) });
    };
    await measure(`read_file (${midLines} lines)`, steps, read, () => readDirect(abs(mid)));
    await measure(`grep_search "${name}"`, grepSteps, grepLiteral, () => grepDirect(workspace, files, { text: name, isRegexp: false }));
    await measure(`grep_search /${regex}/`, grepSteps, grepRegex, () => grepDirect(workspace, files, { text: regex, isRegexp: true }));
    await measure("replace_string_in_file", steps, () => replace(), (i) => replaceDirect(abs(directTarget), markers[i % 2]!, markers[1 - (i % 2)]!));
    await measure("list_dir", steps, list, (i) => listDirect(abs(lists[i % 2]!)));

    // A task as a model would run it: reads, searches, edits and listings mixed.
    const mixed = [read, grepLiteral, () => replace(), list, (i: number) => ({ name: "read_file", arguments: { path: other, start_line: 1 + i, end_line: 40 + i } }), grepRegex];
    const run = await task(Array.from({ length: taskSteps }, (_, i) => mixed[i % mixed.length]!(i)));

    // New files while the index is ready (as create_file makes them): each is judged and indexed
    // from its change event. Polled finely: the wait ends within a few ms of the last one indexed.
    const indexedBefore = api.chat.index().files;
    const created = Array.from({ length: createdFiles }, (_, i) => `${createdFolder}/created-${i}.ts`);
    const cpuBefore = process.cpuUsage();
    const writtenAt = performance.now();
    for (const [i, path] of created.entries()) writeFileSync(abs(path), `export function createdInBench${i}(value: number): number {\n  return value * ${i};\n}\n`);
    while (api.chat.index().files < indexedBefore + created.length) {
      if (performance.now() - writtenAt > 300_000) throw new Error(`only ${api.chat.index().files - indexedBefore} of ${created.length} created files were indexed`);
      await new Promise((done) => setTimeout(done, 2));
    }
    const wallMs = performance.now() - writtenAt;
    const cpu = process.cpuUsage(cpuBefore);
    const indexUpdates: IndexUpdateRow = {
      files: created.length,
      wallMs,
      hostCpuMs: (cpu.user + cpu.system) / 1000,
      directMs: await timeRuns(created.length, async (i) => chunkText(created[i]!, readFileSync(abs(created[i]!), "utf8"))),
    };

    // Start -> the first request, for tasks that answer at once: what a task does before it asks the
    // model (rules, checkpoint, ignore rules, tools and their schemas), with the index ready and off.
    const index = api.chat.index();
    const starts: StartRow[] = [];
    const timeStarts = async (rowName: string) => {
      const profile = await startProfile(rowName);
      const ms: number[] = [];
      for (let i = 0; i < startTasks; i++) ms.push((await task([])).startMs);
      await profile();
      starts.push({ name: rowName, ms });
    };
    await timeStarts("workspace index ready");
    await config.update("wisp.chat.workspaceContext", false, vscode.ConfigurationTarget.Global);
    await waitFor("the index off", () => api.chat.index(), (s) => s.state === "off");
    await timeStarts("workspace index off");

    const out = process.env.WISP_BENCH_OUT;
    if (out) writeFileSync(out, JSON.stringify({ files: files.length, index, setupMs, rows, starts, indexUpdates, task: { steps: taskSteps, totalMs: run.totalMs, modelMs: run.modelMs, startMs: run.startMs } }));
  });
});
