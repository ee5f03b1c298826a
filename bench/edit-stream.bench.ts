// Edit in place under load: a 300-line selection rewritten by a scripted server streaming about
// 1500 tokens a second. Inside the real VS Code extension host it measures the time from a line's
// last token arriving to the editor showing it (Wisp: until its diff decorations are drawn) and the
// long tasks (> 50 ms) of the extension host while it streams; the baseline, measured in the same
// run, writes the same lines straight into the editor as they arrive (lines that come while an
// edit is on its way go with the next, as in Wisp), with no diff. Ratios are
// Wisp / baseline. Run with `npx tsx bench/edit-stream.bench.ts` (or `npm run bench`);
// WISP_BENCH_RUNS sets the runs of each (default 3).
import { percentile, printTable } from "./typing/table";
import { runVscodeBench } from "./vscode-bench";

interface Result {
  name: string;
  latencies: number[];
  longTasks: number[];
  totalMs: number;
}

const report = runVscodeBench<{ lineCount: number; tokens: number; tokensPerSecond: number; results: Result[] }>("bench/edit-stream");
const byName = new Map<string, Result[]>();
for (const result of report.results) byName.set(result.name, [...(byName.get(result.name) ?? []), result]);
const rows = [...byName].map(([name, results]) => {
  const latencies = results.flatMap((r) => r.latencies);
  const tasks = results.flatMap((r) => r.longTasks);
  return { name, p50: percentile(latencies, 0.5), p95: percentile(latencies, 0.95), max: Math.max(...latencies), tasks: tasks.length / results.length, longest: tasks.length ? Math.max(...tasks) : 0, total: results.reduce((s, r) => s + r.totalMs, 0) / results.length };
});
const base = rows[0]!;
console.log(`${report.lineCount} lines, ${report.tokens} tokens at ${report.tokensPerSecond}/s, ${report.results.length / rows.length} runs each (extension host of code-server)`);
printTable(
  ["", "arrival->shown p50 ms", "p95 ms", "max ms", "long tasks >50ms/run", "longest ms", "stream total ms", "p50 ratio", "p95 ratio"],
  rows.map((r) => [r.name, r.p50, r.p95, r.max, r.tasks, r.longest, r.total, r.p50 / base.p50, r.p95 / base.p95]),
  [0, 1, 1, 1, 1, 0, 0, 2, 2],
);
