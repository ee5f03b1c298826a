// Lines a fill-in-the-middle answer may copy from its own file. Code repeats itself (the same call
// with other arguments, a sibling field, the line above with one name changed), and a small model
// copies worse than a text search does: on code it never saw, continuing the current line as the
// file did where the line's last characters occur beats the embedded model's own first line by
// 3x. The candidates are those continuations; the engine lets the model choose among them by its
// own likelihood (see line-choice.ts) and generates only where the file offers none. A line that
// would bring another function's parameters or locals along is not offered (out-of-scope-names.ts),
// nor is such a line of the model's own (see scoped-choice.ts), nor one closing a bracket its line
// never opened (unopened-closers.ts) or ending a Python header without its colon (missing-colon.ts).
import { closingTag } from "./closing-tag";
import { outOfScopeNames } from "./out-of-scope-names";
import { renamedLines } from "./renamed-lines";
import { typeVarName } from "./type-var-name";
import { missingColon } from "./missing-colon";
import { unopenedClosers } from "./unopened-closers";
import type { FileLines } from "./types";

/** Shortest tail of the current line that is looked up (shorter ones match by chance too often). */
const SHORTEST_TAIL = 4;
/** Longest tail looked up: past it, a match says no more about what follows. */
const LONGEST_TAIL = 48;
/** Most candidates offered: each costs the model a decode of its tokens. */
const MOST = 6;
/** A candidate longer than this is not a line of code worth copying whole. */
const LONGEST_LINE = 200;

/**
 * The distinct continuations of the longest tail of the prefix's last line that occurs again,
 * earlier in the prefix (the most recent first) or in the suffix's lines below the cursor (the
 * nearest first). What the cursor's line already has after the cursor (an editor's closing bracket)
 * must end the candidate, and comes off it. Empty when nothing matches, or the longest tail that
 * matches is followed by nothing of use.
 */
export function lineCandidates(prefix: string, suffix: string, outOfScope = outOfScopeNames(prefix, suffix), misfits = misfitLines(prefix)): string[] {
  const line = prefix.slice(prefix.lastIndexOf("\n") + 1);
  const lineEnd = suffix.indexOf("\n");
  const after = cursorLineAfter(suffix);
  const below = lineEnd < 0 ? "" : suffix.slice(lineEnd);
  const inCode = !COMMENT.test(line);
  for (let k = Math.min(LONGEST_TAIL, line.length); k >= SHORTEST_TAIL; k--) {
    const tail = line.slice(-k);
    if (tail.trim() === "") continue;
    const found = [...continuations(prefix, tail, "backward", inCode), ...continuations(below, tail, "forward", inCode)];
    // The longest tail that occurs again decides, even where what follows it there is of no use:
    // a shorter one would match by chance more often than it helps.
    if (found.length === 0) continue;
    const lines = found.flatMap((text) => {
      const rest = endingWith(text, after);
      return rest === undefined || rest.length > LONGEST_LINE || outOfScope(rest).length > 0 || misfits(rest) ? [] : [rest];
    });
    return [...new Set(lines)].slice(0, MOST);
  }
  return [];
}

/**
 * What a one-line answer at the cursor may copy from its file, and the scope check its own line must
 * pass. A sibling line with the cursor line's name in it (renamed-lines.ts) and a TypeVar's own name
 * (type-var-name.ts) come before the copies. A closing tag the markup asks for (closing-tag.ts) is
 * the only line after `</`, and one more line, offered first, after a bare `<`.
 */
export function fileLines(prefix: string, suffix: string): FileLines {
  const outOfScope = outOfScopeNames(prefix, suffix);
  const after = cursorLineAfter(suffix);
  const typeVar = typeVarName(prefix);
  const misfits = misfitLines(prefix);
  // Lines the file's own shape or the language's rules write, offered before the plain copies.
  const known = [...renamedLines(prefix, suffix), ...(typeVar === undefined ? [] : [typeVar])].flatMap((text) => {
    const rest = endingWith(text, after);
    return rest === undefined || outOfScope(rest).length > 0 || misfits(rest) ? [] : [rest];
  });
  const lines = [...new Set([...known, ...lineCandidates(prefix, suffix, outOfScope, misfits)])].slice(0, MOST);
  const tag = closingTag(prefix);
  const closing = tag && endingWith(tag.text, after);
  if (!tag || closing === undefined) return { lines, outOfScope };
  return { lines: tag.certain ? [closing] : [...new Set([closing, ...lines])].slice(0, MOST), outOfScope };
}

/** A check for lines that cannot end the cursor's line, whatever the model thinks of them. */
function misfitLines(prefix: string): (rest: string) => boolean {
  const closesUnopened = unopenedClosers(prefix);
  const colonMissing = missingColon(prefix);
  return (rest) => closesUnopened(rest) || colonMissing(rest);
}

/**
 * A line to offer where the cursor's line already has `after` after the cursor: `text` must end
 * with it, and comes without it; undefined when it does not, or nothing is left.
 */
function endingWith(text: string, after: string): string | undefined {
  const end = text.trimEnd();
  if (!end.endsWith(after)) return undefined;
  const rest = end.slice(0, end.length - after.length).trimEnd();
  return rest === "" ? undefined : rest;
}

/** What the cursor's line has after the cursor, trimmed. */
function cursorLineAfter(suffix: string): string {
  const lineEnd = suffix.indexOf("\n");
  return (lineEnd < 0 ? suffix : suffix.slice(0, lineEnd)).trim();
}

/** A comment's line: `//`, `/*`, a doc comment's `*`, Python's `#` (not a private `#name`). */
const COMMENT = /^\s*(?:\/\/|\/\*|\*|#(?![\w$]))/;

/**
 * What follows each occurrence of `tail` in `text` up to the line's end: backward, the most recent
 * first and not the one that ends the text; forward, the nearest first. Where `inCode`, occurrences
 * in comments are passed over: prose goes on as prose, not as the code the cursor's line is.
 */
function continuations(text: string, tail: string, order: "backward" | "forward", inCode: boolean): string[] {
  const out: string[] = [];
  const add = (at: number) => {
    if (inCode && COMMENT.test(text.slice(text.lastIndexOf("\n", at - 1) + 1, at))) return;
    const from = at + tail.length;
    const end = text.indexOf("\n", from);
    out.push(text.slice(from, end < 0 ? text.length : end));
  };
  if (order === "backward") {
    const last = text.length - tail.length - 1;
    for (let at = last < 0 ? -1 : text.lastIndexOf(tail, last); at >= 0; at = at === 0 ? -1 : text.lastIndexOf(tail, at - 1)) add(at);
  } else {
    for (let at = text.indexOf(tail); at >= 0; at = text.indexOf(tail, at + 1)) add(at);
  }
  return out;
}
