/**
 * A minimal line diff of two whole texts (the common start and end set aside, a longest common
 * subsequence of what is left), for the line counts and highlights of the agent's edits. The edit
 * in place's streaming diff decides line by line as text arrives; a whole file can do better.
 */

import { lcsTable } from "../base/lcs-table";

export interface LineChanges {
  /** Lines of the new text (0-based) that are not in the old one. */
  readonly added: readonly number[];
  /** How many lines of the old text are gone. */
  readonly removed: number;
}

/** Past this many cells the middle is taken as all removed and all added (a rewrite, not an edit). */
const maxCells = 4_000_000;

export function lineChanges(before: readonly string[], after: readonly string[]): LineChanges {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let end = 0;
  while (end < before.length - start && end < after.length - start && before[before.length - 1 - end] === after[after.length - 1 - end]) end++;
  const old = before.slice(start, before.length - end);
  const now = after.slice(start, after.length - end);
  const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);
  if (old.length * now.length > maxCells) return { added: range(start, now.length), removed: old.length };
  const lcs = lcsTable(old, now);
  const added: number[] = [];
  let removed = 0;
  let i = 0;
  let j = 0;
  while (i < old.length || j < now.length) {
    if (i < old.length && j < now.length && old[i] === now[j]) {
      i++;
      j++;
    } else if (j < now.length && (i === old.length || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) {
      added.push(start + j++);
    } else {
      removed++;
      i++;
    }
  }
  return { added, removed };
}
