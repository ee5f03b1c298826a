import { isQuoteFrame, scanBrackets, type BracketState, type Frame } from "./brackets";
import { indentWidth, isCloserLine, type CursorContext } from "./cursor-context";
import type { LineJudge, LineVerdict } from "./filters";
import { LineTracker, type JudgedLine } from "./line-tracker";

/**
 * One reason to end a multi-line suggestion, judged a line at a time: a verdict, or undefined to
 * leave the line to the rules after it. A rule reads only the facts it names, so a stream of
 * other lines (an edit's diff) can run it too.
 */
export type LineRule<Line = JudgedLine> = (line: Line) => LineVerdict | undefined;

/** At the line limit. */
export function lineLimit(maxLines: number): LineRule<Pick<JudgedLine, "index">> {
  return ({ index }) => (index >= maxLines ? "drop-and-stop" : undefined);
}

/**
 * Where the suggestion reaches the code that already follows the cursor (the same line at the
 * same indentation), unless what it opened is still open there and the file does not close it.
 */
export function stopAtFollowingCode(ctx: CursorContext): LineRule<Pick<JudgedLine, "trimmed" | "indent" | "own">> {
  const next = ctx.nextLines[0];
  const nextIndent = next === undefined ? -1 : indentWidth(next, ctx.tabSize);
  return ({ trimmed, indent, own }) => {
    if (trimmed === "" || trimmed !== next?.trim() || indent !== nextIndent) return undefined;
    return own.length === 0 || fileCloses(ctx, own) ? "drop-and-stop" : undefined;
  };
}

/** Where a small model starts repeating the same line a third time (closing lines may repeat). */
export function stopAtRepeats(): LineRule<Pick<JudgedLine, "trimmed">> {
  let previous = "";
  let repeats = 0;
  return ({ trimmed }) => {
    if (trimmed === "" || isCloserLine(trimmed)) return undefined;
    repeats = trimmed === previous ? repeats + 1 : 0;
    previous = trimmed;
    return repeats >= 2 ? "drop-and-stop" : undefined;
  };
}

/**
 * Where the suggestion leaves the cursor's block: a line indented less than the cursor line, or
 * not deeper than it when the cursor line opens a block. A line that closes what was open at the
 * cursor is kept when the file lacks that closer (or has it right after the cursor, auto-inserted,
 * where the suggestion replaces it), dropped when the file has it further on. On an empty line
 * the suggestion may go on through the blocks it opens and closes; after a line that opens a
 * block it ends with that block. Decides every line it sees.
 */
export function stayInBlock(ctx: CursorContext): LineRule<Omit<JudgedLine, "line">> {
  const minIndent = ctx.lineIndent + (ctx.opensBlock ? 1 : 0);
  return ({ index, trimmed, indent, before, own, outer, after }) => {
    // A line inside a string the suggestion opened (a template literal's text) has no indentation to judge.
    const inString = isQuoteFrame(before.frames[before.frames.length - 1]);
    if (index === 0 || trimmed === "" || indent >= minIndent || inString) return "keep";
    /** The first frame open at the cursor (innermost first) that this line closes, if any. */
    const firstClosed = after.low < outer ? ctx.brackets.frames.length - outer : -1;
    if (firstClosed !== -1) {
      if (firstClosed < ctx.closedOnLine) return "keep-and-stop"; // replaces the auto-inserted closer
      if (firstClosed < ctx.closedInFile) return "drop-and-stop"; // the file has it further on
      return "keep"; // the file lacks it: keep closing
    }
    return isCloserLine(trimmed) && own.length > 0 ? "keep-and-stop" : "drop-and-stop";
  };
}

/** The rules of a multi-line suggestion, in the order they are asked. */
export function multilineRules(ctx: CursorContext, maxLines: number): LineRule[] {
  return [lineLimit(maxLines), stopAtFollowingCode(ctx), stopAtRepeats(), stayInBlock(ctx)];
}

/**
 * Asks `rules` in order about each line: the first verdict counts, and a line none of them
 * decides is kept. The one place rules are composed, for the stream and for post-processing.
 */
export function judgeByRules(ctx: CursorContext, rules: readonly LineRule[]): LineJudge {
  const tracker = new LineTracker(ctx);
  return (line, index) => {
    const judged = tracker.see(line, index);
    let verdict: LineVerdict = "keep";
    for (const rule of rules) {
      const said = rule(judged);
      if (said === undefined) continue;
      verdict = said;
      break;
    }
    if (verdict !== "drop-and-stop") tracker.keep(judged);
    return verdict;
  };
}

/** Where a multi-line suggestion ends, decided line by line while it streams (see the rules above). */
export function multilineJudge(ctx: CursorContext, maxLines: number): LineJudge {
  return judgeByRules(ctx, multilineRules(ctx, maxLines));
}

/**
 * The lines after the cursor close `frames` before they leave the cursor's block: the rest of
 * what the suggestion opened is already in the file.
 */
function fileCloses(ctx: CursorContext, frames: readonly Frame[]): boolean {
  let state: BracketState = { frames, blockComment: false, prev: "" };
  let closed = 0;
  for (const line of ctx.nextLines) {
    if (indentWidth(line, ctx.tabSize) < ctx.lineIndent) return false;
    state = scanBrackets(`${line}\n`, ctx.syntax, state, { onCloseOuter: () => closed++ });
    if (closed >= frames.length) return true;
  }
  return false;
}

/** How many lines of a finished multi-line suggestion to keep so that it does not end inside a block it opened. */
export function balancedLineCount(lines: readonly string[], ctx: CursorContext): number {
  const tracker = new LineTracker(ctx);
  let lastBalanced = 0;
  for (const [i, line] of lines.entries()) {
    tracker.keep(tracker.see(line, i));
    if (tracker.own().length === 0) lastBalanced = i + 1;
  }
  const own = tracker.own();
  if (own.length === 0 || lastBalanced === 0 || fileCloses(ctx, own)) return lines.length;
  return lastBalanced;
}
