// The reliability report: each suite records what it tried and what failed; the table is printed
// once at the end of the run (a mocha root hook), as `npm run test:reliability` promises.

export interface ReportRow {
  readonly category: string;
  readonly cases: number;
  readonly failures: number;
  readonly notes: string;
}

/** `npm test` runs the short form; `npm run test:reliability` sets WISP_RELIABILITY=full. */
export const fullRun = process.env.WISP_RELIABILITY === "full";

/** The short or the full value of a bound. */
export const scaled = (short: number, full: number): number => (fullRun ? full : short);

// One list for the whole run, kept on the process: mocha requires this file for its root hook
// (CommonJS, through tsx), while a test file it has to import as an ES module (the disconnect
// storm's) gets a second instance of this file; a module-level list lost that file's row.
const ROWS = Symbol.for("wisp.reliability.rows");
const shared = globalThis as { [ROWS]?: ReportRow[] };
const rows: ReportRow[] = (shared[ROWS] ??= []);

export function record(row: ReportRow): void {
  rows.push(row);
}

export function formatReport(list: readonly ReportRow[]): string {
  const header = ["category", "cases", "failures", "figures"];
  const cells = list.map((r) => [r.category, String(r.cases), String(r.failures), r.notes]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => `| ${c.map((x, i) => (i === 1 || i === 2 ? x.padStart(widths[i]!) : x.padEnd(widths[i]!))).join(" | ")} |`;
  const rule = `|${widths.map((w, i) => (i === 1 || i === 2 ? `${"-".repeat(w + 1)}:` : "-".repeat(w + 2))).join("|")}|`;
  return [line(header), rule, ...cells.map(line)].join("\n");
}

export const mochaHooks = {
  afterAll(): void {
    if (rows.length === 0) return;
    const total = rows.reduce((a, r) => ({ cases: a.cases + r.cases, failures: a.failures + r.failures }), { cases: 0, failures: 0 });
    console.log(`\nReliability (${fullRun ? "full" : "short"} run)\n${formatReport(rows)}\ntotal: ${total.cases} cases, ${total.failures} failures\n`);
  },
};
