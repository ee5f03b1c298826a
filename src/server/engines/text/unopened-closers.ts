// A line copied from elsewhere in the file can close a bracket it did not open there: `zoom));`
// from `this._setZoom(this._clampZoom(zoom));` after `\t_clampZoom(`, `) {` from `while ((x =
// Object.getPrototypeOf(x)) !== null) {` after `let current = `. Where the cursor's line starts a
// statement (the line above ends one, and the cursor's line does not start by closing), that line
// cannot close more than it opens: such a copy does not compile. On the bench's 1,449 lines, no
// real line was such a line.
import { bracketDepths } from "./bracket-depths";

const CLOSERS = ")]}";
/** A line above that ends so goes on below: an argument list, an operator, a dotted chain. */
const CONTINUED = /[([,+\-*/=&|?:.\\<>!%^]$/;

/** Whether the cursor's line starts a statement of its own, so its brackets must balance within it. */
export function startsStatement(prefix: string): boolean {
  const lineStart = prefix.lastIndexOf("\n") + 1;
  if (CLOSERS.includes(prefix.slice(lineStart).trimStart()[0] ?? "")) return false;
  const above = lineAbove(prefix, lineStart);
  if (above === undefined) return true;
  const end = above.trimEnd();
  // A block's body, or an object literal's keys, start below a `{`.
  if (end.endsWith("{")) return true;
  // Python's block header ends with `:` and starts a statement below it.
  if (CONTINUED.test(end) && !/\b(?:def|class|if|elif|else|for|while|try|except|finally|with)\b.*:$/.test(end)) return false;
  return bracketDepths(end).end <= 0;
}

/**
 * A check for the lines a one-line answer may give at the end of `prefix`: true for a line that
 * closes a bracket its own line never opened, where the cursor's line starts a statement.
 */
export function unopenedClosers(prefix: string): (rest: string) => boolean {
  if (!startsStatement(prefix)) return () => false;
  const line = prefix.slice(prefix.lastIndexOf("\n") + 1);
  return (rest) => bracketDepths(line + rest).lowest < 0;
}

/** The last line of `text` before `lineStart` with anything on it; read back from there, not split out of the whole prefix. */
function lineAbove(text: string, lineStart: number): string | undefined {
  for (let end = lineStart - 1; end >= 0; ) {
    // `end` is the line break that ends the line; at 0 the line is the text's empty first one.
    const start = end === 0 ? 0 : text.lastIndexOf("\n", end - 1) + 1;
    const line = text.slice(start, end);
    if (line.trim() !== "") return line;
    end = start - 1;
  }
  return undefined;
}
