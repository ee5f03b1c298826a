import { lcsTable } from "../base/lcs-table";
import type { NextEdit } from "./predict-next-edits";

/** Beyond this many line pairs the line diff is not worth it: one edit spans all the changes. */
const maxCells = 250_000;

/**
 * The edits that turn `current` into `updated`, offsets in `current`, in order: the lines that
 * differ (a longest-common-subsequence line diff), each run of them narrowed to the characters
 * that actually change, so a renamed word on a line is one small edit.
 */
export function editsBetween(current: string, updated: string): NextEdit[] {
  if (current === updated) return [];
  const a = linesOf(current);
  const b = linesOf(updated);
  if (a.length * b.length > maxCells) return [narrowed(current, updated, 0)];
  const lcs = lcsTable(a, b);
  const edits: NextEdit[] = [];
  let i = 0;
  let j = 0;
  let offset = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      offset += a[i++].length;
      j++;
      continue;
    }
    // A run of differing lines, up to the next common line.
    const from = offset;
    const oldLines: string[] = [];
    const newLines: string[] = [];
    while ((i < a.length || j < b.length) && !(i < a.length && j < b.length && a[i] === b[j])) {
      if (j >= b.length || (i < a.length && lcs[i + 1][j] >= lcs[i][j + 1])) {
        oldLines.push(a[i]);
        offset += a[i++].length;
      } else newLines.push(b[j++]);
    }
    edits.push(...runEdits(oldLines, newLines, from));
  }
  return edits;
}

/** A run of changed lines: line by line where as many lines came as went (each line edited in place), else one edit. */
function runEdits(oldLines: readonly string[], newLines: readonly string[], offset: number): NextEdit[] {
  if (oldLines.length !== newLines.length) return [narrowed(oldLines.join(""), newLines.join(""), offset)];
  let at = offset;
  return oldLines.map((line, k) => {
    const edit = narrowed(line, newLines[k], at);
    at += line.length;
    return edit;
  });
}

/** `oldText` at `offset` becomes `newText`, less what both start and end with. */
function narrowed(oldText: string, newText: string, offset: number): NextEdit {
  let head = 0;
  while (head < oldText.length && head < newText.length && oldText[head] === newText[head]) head++;
  let tail = 0;
  while (tail < oldText.length - head && tail < newText.length - head && oldText[oldText.length - 1 - tail] === newText[newText.length - 1 - tail]) tail++;
  return { offset: offset + head, oldText: oldText.slice(head, oldText.length - tail), newText: newText.slice(head, newText.length - tail) };
}

/** The lines of `text`, each with its line break. */
function linesOf(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}
