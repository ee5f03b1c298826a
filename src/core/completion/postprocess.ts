import { normalizeIndent, type CursorContext } from "./cursor-context";
import { balancedLineCount, multilineJudge } from "./line-rules";
import { noSuggestion, placeOnLine, type Suggestion } from "./placement";

export interface PostprocessOptions {
  readonly maxLines: number;
}

/** Undecodable bytes (U+FFFD) and control characters other than tab and newlines: never code. */
const garbage = /[\uFFFD\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/**
 * Turns what the model wrote into the suggestion to show: one line mid-line, a block where one
 * is expected (ending where the code after the cursor starts, never inside a block it opened),
 * indentation in the document's style, placed over the closers the editor auto-inserted after
 * the cursor, and nothing when nothing useful is left.
 */
export function postprocess(raw: string, ctx: CursorContext, options: PostprocessOptions): Suggestion {
  const clean = garbage.exec(raw);
  let lines = (clean ? raw.slice(0, clean.index) : raw).replace(/\r\n?/g, "\n").split("\n");
  if (ctx.multiline) {
    lines = judged(lines.map((l) => l.trimEnd()), ctx, options.maxLines);
    while (lines.length > 0 && (lines[lines.length - 1] as string).trim() === "") lines.pop();
    lines = lines.slice(0, balancedLineCount(lines, ctx));
  } else {
    // Mid-line a trailing space may separate the suggestion from the text after it: keep it there.
    lines = lines.slice(0, 1);
  }
  lines = lines.map((line, i) => (i > 0 || ctx.linePrefix.trim() === "" ? normalizeIndent(line, ctx) : line));
  // After "x = " a model's " 1" would leave two spaces.
  if (lines.length > 0 && /\S[ \t]+$/.test(ctx.linePrefix)) lines[0] = (lines[0] as string).trimStart();
  const text = lines.join("\n");
  if (text.trim() === "") return noSuggestion;
  const placed = placeOnLine(text, ctx);
  return repeatsNextLine(placed, ctx) ? noSuggestion : placed;
}

/**
 * Mid-statement (one line) the model often copies the line below (`con|` + `sole.log(total);`
 * over `console.log(total);`); the multi-line rules catch that only for blocks.
 */
function repeatsNextLine(s: Suggestion, ctx: CursorContext): boolean {
  if (ctx.multiline || s.text === "" || s.text.includes("\n")) return false;
  const next = ctx.nextLines[0]?.trim();
  return next !== undefined && next !== "" && (ctx.linePrefix + s.text + ctx.lineSuffix.slice(s.replace)).trim() === next;
}

/** The lines the multi-line rules keep (the same rules that stop the stream). */
function judged(lines: readonly string[], ctx: CursorContext, maxLines: number): string[] {
  const judge = multilineJudge(ctx, maxLines);
  const kept: string[] = [];
  for (const [i, line] of lines.entries()) {
    const verdict = judge(line, i, kept.join("\n"));
    if (verdict === "drop-and-stop") break;
    kept.push(line);
    if (verdict === "keep-and-stop") break;
  }
  return kept;
}
