/**
 * A line diff of an original block against a proposal that arrives line by line. Every decision is
 * taken when a proposed line arrives and never revisited, so what is on screen while the answer
 * streams only grows. A proposed line is, in this order: the next original line; a later original
 * line when it is distinctive enough not to match by chance (the original lines skipped over are
 * removed); a changed version of the next original line when the two are alike (that line is
 * removed); else new. Original lines not yet reached stay pending until the proposal ends.
 */
import { levenshtein } from "../base/edit-distance";

export type DiffRow =
  | { readonly kind: "same"; readonly original: number }
  | { readonly kind: "removed"; readonly original: number }
  | { readonly kind: "added"; readonly text: string };

/** Short or punctuation-only lines (`}`, `end`, blank) match only the very next original line. */
function distinctive(line: string): boolean {
  const trimmed = line.trim();
  return trimmed.length >= 4 && /[A-Za-z0-9]/.test(trimmed);
}

/** Lines alike enough to be one changed line: at most half of the longer one edited. */
export function alike(a: string, b: string): boolean {
  const x = a.trim();
  const y = b.trim();
  const longer = Math.max(x.length, y.length);
  if (Math.min(x.length, y.length) < 3 || longer > 400) return false;
  return levenshtein(x, y) <= longer / 2;
}

const sameLine = (a: string, b: string) => a.trimEnd() === b.trimEnd();

export class StreamingLineDiff {
  private readonly diffRows: DiffRow[] = [];
  private next = 0;
  private ended = false;

  constructor(private readonly original: readonly string[]) {}

  /** The rows decided so far, in display order of the proposal. */
  get rows(): readonly DiffRow[] {
    return this.diffRows;
  }

  /** The first original line not reached yet (all of them are pending from here). */
  get pendingFrom(): number {
    return this.next;
  }

  get finished(): boolean {
    return this.ended;
  }

  /** Takes the next complete line of the proposal. */
  push(line: string): void {
    if (this.ended) throw new Error("the proposal already ended");
    const at = this.match(line);
    if (at === undefined) {
      if (this.next < this.original.length && alike(this.original[this.next]!, line)) this.diffRows.push({ kind: "removed", original: this.next++ });
      this.diffRows.push({ kind: "added", text: line });
      return;
    }
    for (let i = this.next; i < at; i++) this.diffRows.push({ kind: "removed", original: i });
    this.diffRows.push({ kind: "same", original: at });
    this.next = at + 1;
  }

  /** The proposal ended: the original lines it did not reach are removed. */
  finish(): void {
    if (this.ended) return;
    for (let i = this.next; i < this.original.length; i++) this.diffRows.push({ kind: "removed", original: i });
    this.next = this.original.length;
    this.ended = true;
  }

  private match(line: string): number | undefined {
    const { original } = this;
    if (this.next < original.length && sameLine(original[this.next]!, line)) return this.next;
    if (!distinctive(line)) return undefined;
    for (let i = this.next + 1; i < original.length; i++) if (sameLine(original[i]!, line)) return i;
    return undefined;
  }
}

/** The whole diff of a finished proposal. */
export function diffLines(original: readonly string[], proposed: readonly string[]): readonly DiffRow[] {
  const diff = new StreamingLineDiff(original);
  for (const line of proposed) diff.push(line);
  diff.finish();
  return diff.rows;
}
