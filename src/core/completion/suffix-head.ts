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

/** How the text after the cursor changed by auto-closing since it was `before`. */
export interface CloserChange {
  /** Closers the editor inserted right after the cursor (typing `(` gives `(|)`). */
  readonly inserted: number;
  /** Closers that were right after the cursor and the user typed over. */
  readonly typedOver: number;
}

/** The most closers a few keystrokes make the editor insert or type over. */
const maxChange = 4;

/**
 * `suffix` is `before` with its first `typedOver` characters (at most `maxTypedOver`, closers)
 * gone and `inserted` closers put in front; undefined when it changed otherwise. The smallest
 * change is reported.
 */
export function closerChange(before: SuffixHead, suffix: string, maxTypedOver: number): CloserChange | undefined {
  const isClosers = (text: string) => [...text].every((ch) => autoClosers.includes(ch));
  for (let typedOver = 0; typedOver <= Math.min(maxTypedOver, maxChange, before.head.length); typedOver++) {
    if (!isClosers(before.head.slice(0, typedOver))) break;
    const kept = before.head.slice(typedOver);
    for (let inserted = 0; inserted <= maxChange && inserted <= suffix.length; inserted++) {
      if (!isClosers(suffix.slice(0, inserted))) break;
      const rest = suffix.slice(inserted);
      if (before.whole ? rest === kept : rest.startsWith(kept)) return { inserted, typedOver };
    }
  }
  return undefined;
}
