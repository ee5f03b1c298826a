import { normalizeIndent, type CursorContext } from "./cursor-context";

export interface PostprocessOptions {
  readonly maxLines: number;
}

/** Undecodable bytes (U+FFFD) and control characters other than tab and newlines: never code. */
const garbage = /[\uFFFD\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** Characters that may be typed over from the text after the cursor without losing anything. */
const closers = /^[)\]}>'"`;,]+$/;

/**
 * Turns what the model wrote into the ghost text to show: one line mid-line, indentation in the
 * document's style, nothing that repeats the text after the cursor, at most `maxLines` lines,
 * and "" when nothing useful is left.
 */
export function postprocess(raw: string, ctx: CursorContext, options: PostprocessOptions): string {
  const clean = garbage.exec(raw);
  let lines = (clean ? raw.slice(0, clean.index) : raw).replace(/\r\n?/g, "\n").split("\n");
  if (!ctx.multiline) lines = lines.slice(0, 1);
  // Mid-line a trailing space may separate the suggestion from the text after it: keep it there.
  const keepTrailing = !ctx.multiline;
  lines = lines.slice(0, options.maxLines).map((l) => (keepTrailing ? l : l.trimEnd()));
  lines = lines.map((line, i) => (i > 0 || ctx.linePrefix.trim() === "" ? normalizeIndent(line, ctx) : line));
  // After "x = " a model's " 1" would leave two spaces.
  if (/\S[ \t]+$/.test(ctx.linePrefix)) lines[0] = (lines[0] as string).trimStart();
  lines = ctx.multiline ? dropRepeatedNextLines(lines, ctx) : [dropLineSuffixOverlap(lines[0] as string, ctx.lineSuffix)];
  while (lines.length > 0 && (lines[lines.length - 1] as string).trim() === "") lines.pop();
  const text = lines.join("\n");
  return text.trim() === "" ? "" : text;
}

/**
 * Mid-line: drop the end of the suggestion that the rest of the line already has, such as the
 * `)` of `foo(|)`. Only closing punctuation is matched partially; other text must match whole.
 */
function dropLineSuffixOverlap(line: string, lineSuffix: string): string {
  const rest = lineSuffix.trim();
  if (rest === "") return line;
  if (line.trimEnd().endsWith(rest)) return line.trimEnd().slice(0, -rest.length).trimEnd();
  for (let k = Math.min(rest.length, line.length); k > 0; k--) {
    const part = rest.slice(0, k);
    if (closers.test(part) && line.endsWith(part)) return line.slice(0, -k);
  }
  return line;
}

/**
 * Multi-line: end where the suggestion reaches the line that already follows the cursor, as the
 * streaming rule does; what follows would repeat existing code (no duplicated `}`).
 */
function dropRepeatedNextLines(lines: string[], ctx: CursorContext): string[] {
  const next = ctx.nextLines[0];
  if (next === undefined) return lines;
  const hit = lines.findIndex((l, i) => (i === 0 ? ctx.linePrefix + l : l).trim() === next);
  return hit === -1 ? lines : lines.slice(0, hit);
}
