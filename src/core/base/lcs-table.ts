/**
 * The longest-common-subsequence table of two line lists: `table[i][j]` is how many lines of
 * `a[i..]` and `b[j..]` can be matched in order. Line diffs walk it from (0, 0).
 */
export function lcsTable(a: readonly string[], b: readonly string[]): Uint32Array[] {
  const table = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) table[i]![j] = a[i] === b[j] ? table[i + 1]![j + 1]! + 1 : Math.max(table[i + 1]![j]!, table[i]![j + 1]!);
  }
  return table;
}
