// Next-edit suggestions' latency, inside the real VS Code extension host (code-server): from the
// keystroke that completes an edit (the editor's `type` command, as a key press runs it) to the
// local predictor's suggestion being shown (the controller has set its decorations and context
// key), p50/p95, in a 100-line and a 2,000-line TypeScript file, for a rename of a local on its
// declaration and a repeated call change. The baseline, measured in the same run with
// wisp.nextEdit.enabled off, is the same keystroke to the document change event reaching the
// extension host: the editor's own round trip, which Wisp cannot be faster than. Ratio = shown /
// baseline; "on: change" = the change event with next edit on (the editor also draws the previous
// keystroke's suggestion); "Wisp's share" = shown - that change event. Target: p50 under 50 ms.
// The model path: wisp.nextEdit.model set, against a scripted server in the same host that answers
// Sweep's prompt after a fixed delay; keystroke -> the model's suggestion shown, and Wisp's
// overhead beyond that delay (its part of the time a real model's answer takes to show). Run with `npx tsx bench/next-edit.bench.ts` (or `npm run bench`);
// WISP_BENCH_SAMPLES sets the samples per side and row (default 60); the timed key comes
// WISP_BENCH_KEY_GAP_MS (default 120) after the one before it, as in typing.
import type { ModelRow, Row } from "./next-edit/next-edit.test";
import { percentile, printTable } from "./typing/table";
import { runVscodeBench } from "./vscode-bench";

const report = runVscodeBench<{ samples: number; rows: Row[]; modelRows: ModelRow[] }>("bench/next-edit");
console.log(`next edit, local predictor: ${report.samples} keystrokes per side and row, extension host of code-server`);
printTable(
  ["edit", "lines", "shown p50 ms", "p95 ms", "off: change p50 ms", "off p95 ms", "p50 ratio", "p95 ratio", "on: change p50 ms", "Wisp's share p50 ms", "p95 ms"],
  report.rows.map((r) => {
    const [s50, s95, o50, o95] = [percentile(r.shown, 0.5), percentile(r.shown, 0.95), percentile(r.off, 0.5), percentile(r.off, 0.95)];
    const share = r.shown.map((s, i) => s - r.change[i]!);
    return [r.name, r.lines, s50, s95, o50, o95, s50 / o50, s95 / o95, percentile(r.change, 0.5), percentile(share, 0.5), percentile(share, 0.95)];
  }),
  [0, 0, 1, 1, 1, 1, 2, 2, 1, 1, 1],
);
const worst = Math.max(...report.rows.map((r) => percentile(r.shown, 0.5)));
console.log(`\nslowest row's p50 ${worst.toFixed(1)} ms: ${worst < 50 ? "meets" : "MISSES"} the target of under 50 ms`);

console.log(`\nnext edit, model path: scripted server answering after a fixed delay, ${report.samples} keystrokes per row`);
printTable(
  ["lines", "delay ms", "key -> request p50 ms", "p95 ms", "shown p50 ms", "p95 ms", "overhead p50 ms", "p95 ms", "shown / delay p50"],
  report.modelRows.map((r) => {
    const [s50, s95] = [percentile(r.shown, 0.5), percentile(r.shown, 0.95)];
    return [r.lines, r.delayMs, percentile(r.request, 0.5), percentile(r.request, 0.95), s50, s95, s50 - r.delayMs, s95 - r.delayMs, s50 / r.delayMs];
  }),
  [0, 0, 1, 1, 1, 1, 1, 1, 2],
);
