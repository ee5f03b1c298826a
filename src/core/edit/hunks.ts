/**
 * Hunks of an edit and what the user decided about each: the lines shown in the editor while the
 * edit is reviewed, and the text the decisions make.
 */
import type { DiffRow } from "./streaming-diff";

/** Original lines `[originalStart, originalEnd)` replaced by `added`. */
export interface Hunk {
  readonly originalStart: number;
  readonly originalEnd: number;
  readonly added: readonly string[];
}

export type Decision = "pending" | "accepted" | "rejected";

/** A run of unchanged original lines, or a hunk (its index in the hunk list). */
export type Segment = { readonly kind: "same"; readonly start: number; readonly end: number } | { readonly kind: "hunk"; readonly hunk: number };

export interface EditShape {
  readonly hunks: readonly Hunk[];
  readonly segments: readonly Segment[];
}

/** Groups the rows into hunks; each hunk's removed lines are contiguous in the original. */
export function shapeOf(rows: readonly DiffRow[]): EditShape {
  const hunks: Hunk[] = [];
  const segments: Segment[] = [];
  let open: { start: number; end: number; added: string[] } | undefined;
  let position = 0;
  const close = () => {
    if (open === undefined) return;
    hunks.push({ originalStart: open.start, originalEnd: open.end, added: open.added });
    segments.push({ kind: "hunk", hunk: hunks.length - 1 });
    open = undefined;
  };
  for (const row of rows) {
    if (row.kind === "same") {
      close();
      const last = segments.at(-1);
      if (last?.kind === "same" && last.end === row.original) segments[segments.length - 1] = { ...last, end: row.original + 1 };
      else segments.push({ kind: "same", start: row.original, end: row.original + 1 });
      position = row.original + 1;
      continue;
    }
    open ??= { start: position, end: position, added: [] };
    if (row.kind === "removed") open.end = position = row.original + 1;
    else open.added.push(row.text);
  }
  // An open hunk at the end grows while the proposal streams: it stays the last segment.
  close();
  return { hunks, segments };
}

export type LineKind = "same" | "removed" | "added" | "pending";

export interface ShownLine {
  readonly text: string;
  readonly kind: LineKind;
  /** The hunk the line belongs to (removed and added lines). */
  readonly hunk?: number;
}

/**
 * The lines the editor shows: unchanged lines, each undecided hunk as its removed lines then its
 * added ones, decided hunks as they will be, then the original lines the proposal has not reached.
 */
export function shownLines(original: readonly string[], shape: EditShape, decisions: readonly Decision[], pendingFrom: number): ShownLine[] {
  const lines: ShownLine[] = [];
  for (const segment of shape.segments) {
    if (segment.kind === "same") {
      for (let i = segment.start; i < segment.end; i++) lines.push({ text: original[i]!, kind: "same" });
      continue;
    }
    const hunk = shape.hunks[segment.hunk]!;
    const decision = decisions[segment.hunk] ?? "pending";
    if (decision !== "accepted") {
      const kind = decision === "pending" ? "removed" : "same";
      for (let i = hunk.originalStart; i < hunk.originalEnd; i++) lines.push({ text: original[i]!, kind, hunk: segment.hunk });
    }
    if (decision !== "rejected") {
      const kind = decision === "pending" ? "added" : "same";
      for (const text of hunk.added) lines.push({ text, kind, hunk: segment.hunk });
    }
  }
  for (let i = pendingFrom; i < original.length; i++) lines.push({ text: original[i]!, kind: "pending" });
  return lines;
}

/** The lines the decisions make: accepted hunks applied, the rest (pending included) as original. */
export function decidedLines(original: readonly string[], shape: EditShape, decisions: readonly Decision[]): string[] {
  const all = decisions.map((d) => (d === "accepted" ? "accepted" : "rejected"));
  return shownLines(original, shape, all, original.length).map((line) => line.text);
}

/** Where each undecided hunk starts among the shown lines (for its CodeLens), by hunk index. */
export function hunkStarts(lines: readonly ShownLine[]): Map<number, number> {
  const starts = new Map<number, number>();
  lines.forEach((line, index) => {
    const undecided = line.kind === "removed" || line.kind === "added";
    if (undecided && line.hunk !== undefined && !starts.has(line.hunk)) starts.set(line.hunk, index);
  });
  return starts;
}
