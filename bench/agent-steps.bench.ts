// Agent mode's own time per step, inside the real VS Code extension host against a scripted model,
// on a 5,000-file workspace of real sources (copied from node_modules, indexed before measuring).
// A step's time is measured at the seam: from the scripted server ending the answer that called
// the tool to the next request arriving there. That is the loop's own work: parsing the stream,
// validating the call, running the tool, updating the transcript (chat store, chat view), fitting
// the conversation and sending it. The baseline, in the same run and extension host, does the same
// work directly with node:fs: read_file = readFile of the file; grep_search = a plain loop reading
// all 5,000 files and finding the matching lines; replace_string_in_file = readFile, replace,
// writeFile; list_dir = readdir and sort. Ratio = agent step / direct work. Last, a 25-step task
// of mixed reads, searches, edits and listings: its wall time minus the time the server spent
// streaming answers is the time outside the model. Target: read_file p50 under 20 ms.
// Then files created while the index is ready (written at once -> the last one indexed, and the
// extension host's CPU meanwhile, beside reading and chunking them directly), and task starts:
// Start -> the first request at the server, for tasks that answer at once, with the index ready and
// off. Target: under 50 ms.
// Run with `npx tsx bench/agent-steps.bench.ts` (or `npm run bench`); WISP_BENCH_STEPS sets the
// steps per row (default 40; grep rows half as many), WISP_BENCH_FILES the workspace's files,
// WISP_BENCH_CREATED the files created (default 100), WISP_BENCH_STARTS the task starts per row
// (default 12), and WISP_BENCH_PROFILE a folder for a CPU profile of the extension host per row.
import type { IndexUpdateRow, StartRow, StepRow } from "./agent-steps/agent-steps.test";
import { percentile, printTable } from "./typing/table";
import { runVscodeBench } from "./vscode-bench";

interface Report {
  files: number;
  index: { files: number; chunks: number };
  setupMs: { copy: number; index: number };
  rows: StepRow[];
  starts: StartRow[];
  indexUpdates: IndexUpdateRow;
  task: { steps: number; totalMs: number; modelMs: number; startMs: number };
}

const report = runVscodeBench<Report>("bench/agent-steps");
console.log(`agent steps: ${report.files} files in the workspace (copied in ${(report.setupMs.copy / 1000).toFixed(1)} s; indexed in ${(report.setupMs.index / 1000).toFixed(1)} s: ${report.index.files} files, ${report.index.chunks} chunks), scripted model, extension host of code-server`);
printTable(
  ["tool", "steps", "agent step p50 ms", "p95 ms", "direct p50 ms", "direct p95 ms", "p50 ratio", "p95 ratio"],
  report.rows.map((r) => {
    const [a50, a95, d50, d95] = [percentile(r.agent, 0.5), percentile(r.agent, 0.95), percentile(r.direct, 0.5), percentile(r.direct, 0.95)];
    return [r.name, r.agent.length, a50, a95, d50, d95, a50 / d50, a95 / d95];
  }),
  [0, 0, 1, 1, 2, 2, 1, 1],
);
const { steps, totalMs, modelMs, startMs } = report.task;
printTable(
  [`${steps}-step task`, "total ms", "model (server streaming) ms", "outside the model ms", "of it, task start ms", "per step ms"],
  [["reads, greps, edits, listings", totalMs, modelMs, totalMs - modelMs, startMs, (totalMs - modelMs) / steps]],
  [0, 0, 0, 0, 0, 1],
);
const updates = report.indexUpdates;
const direct = percentile(updates.directMs, 0.5);
printTable(
  ["workspace index: files created", "files", "all indexed after ms", "per file ms", "host CPU per file ms", "direct read+chunk p50 ms", "per file ratio"],
  [["written at once, index ready", updates.files, updates.wallMs, updates.wallMs / updates.files, updates.hostCpuMs / updates.files, direct, updates.wallMs / updates.files / direct]],
  [0, 0, 0, 2, 2, 3, 0],
);
printTable(
  ["task start: Start -> first request", "tasks", "p50 ms", "p95 ms", "max ms"],
  report.starts.map((r) => [r.name, r.ms.length, percentile(r.ms, 0.5), percentile(r.ms, 0.95), Math.max(...r.ms)]),
  [0, 0, 1, 1, 1],
);
const read = report.rows.find((r) => r.name.startsWith("read_file"))!;
const p50 = percentile(read.agent, 0.5);
console.log(`\nread_file step p50 ${p50.toFixed(1)} ms: ${p50 < 20 ? "meets" : "MISSES"} the target of under 20 ms`);
for (const r of report.starts) {
  const start = percentile(r.ms, 0.5);
  console.log(`task start p50 (${r.name}) ${start.toFixed(1)} ms: ${start < 50 ? "meets" : "MISSES"} the target of under 50 ms`);
}
