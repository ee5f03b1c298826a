// How a line's brackets nest, read without a parser: strings and comments are skipped, so the
// checks on copied lines (unopened-closers.ts, missing-colon.ts) count only the code's brackets.

export interface BracketDepths {
  /** The lowest depth reached: below 0 where the text closes more than it opened. */
  lowest: number;
  /** The depth at the end. */
  end: number;
  /** Whether a `:` stands outside every bracket, string and comment. */
  colon: boolean;
  /** Whether the text ends inside a string. */
  inString: boolean;
}

/**
 * The bracket depths of `code`. In Python a `#` starts a comment anywhere and `//` divides; where the
 * language is not known, `//` starts one, and so does a `#` at the start or after white space (not
 * a private `#name`).
 */
export function bracketDepths(code: string, python = false): BracketDepths {
  let depth = 0;
  let lowest = 0;
  let colon = false;
  let quote: string | undefined;
  for (let i = 0; i < code.length; i++) {
    const ch = code[i]!;
    if (quote) {
      if (ch === "\\") i++;
      else if (ch === quote) quote = undefined;
    } else if (ch === "'" || ch === '"' || ch === "`") quote = ch;
    else if (python ? ch === "#" : code.startsWith("//", i) || (ch === "#" && (i === 0 || /\s/.test(code[i - 1]!)))) break;
    else if ("([{".includes(ch)) depth++;
    else if (")]}".includes(ch)) lowest = Math.min(lowest, --depth);
    else if (ch === ":" && depth === 0) colon = true;
  }
  return { lowest, end: depth, colon, inString: quote !== undefined };
}
