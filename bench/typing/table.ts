// Small helpers for the benchmarks' printed tables.

/** The p-th percentile (0..1) of `xs`, NaN for none. */
export function percentile(xs: readonly number[], p: number): number {
  return xs.length === 0 ? NaN : [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
}

export function fmt(x: number, digits = 0): string {
  return Number.isFinite(x) ? x.toFixed(digits) : "-";
}

/** Prints a table: the first column left-aligned, numbers formatted with `digits[i]` decimals. */
export function printTable(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number>>, digits: readonly number[] = []): void {
  const cells = [header.map(String), ...rows.map((r) => r.map((c, i) => (typeof c === "number" ? fmt(c, digits[i] ?? 0) : c)))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? "").length)));
  console.log();
  cells.forEach((r, n) => {
    console.log(r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  "));
    if (n === 0) console.log(widths.map((w) => "-".repeat(w)).join("  "));
  });
}
