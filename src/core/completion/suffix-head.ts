import { autoClosers } from "./brackets";

/** The start of the text after the cursor, remembered compactly. */
export interface SuffixHead {
  readonly head: string;
  /** The head is the whole suffix. */
  readonly whole: boolean;
}

export function suffixHeadOf(suffix: string, chars: number): SuffixHead {
  return { head: suffix.slice(0, chars), whole: suffix.length <= chars };
}

/** The most closers one keystroke can make the editor insert (auto-surround of nested pairs aside). */
const maxInserted = 4;

/**
 * How many characters the editor inserted right after the cursor since `before` was the text
 * after it: 0 when it is unchanged, n when the current suffix is n auto-inserted closers
 * (`)`, `"`...) followed by it; -1 when it changed otherwise.
 */
export function insertedClosers(before: SuffixHead, suffix: string): number {
  for (let n = 0; n <= maxInserted && n <= suffix.length; n++) {
    if (n > 0 && !autoClosers.includes(suffix[n - 1] as string)) return -1;
    const rest = suffix.slice(n);
    if (before.whole ? rest === before.head : rest.startsWith(before.head)) return n;
  }
  return -1;
}
