import { isQuoteFrame, scanBrackets, type BracketState, type Frame } from "./brackets";
import { indentWidth, isCloserLine, type CursorContext } from "./cursor-context";
import type { LineJudge } from "./filters";

/**
 * Where a multi-line suggestion ends, decided line by line while it streams:
 * - at the line limit;
 * - where it reaches the code that already follows the cursor (the same line at the same
 *   indentation), unless what it opened is still open there and the file does not close it;
 * - where it leaves the cursor's block (a line indented less than the cursor line, or not deeper
 *   than it when the cursor line opens a block): a line that closes what was open at the cursor
 *   is kept when the file lacks that closer (or has it right after the cursor, auto-inserted,
 *   where the suggestion replaces it), dropped when the file has it further on;
 * - where a small model starts repeating the same line (closing lines may repeat).
 * On an empty line the suggestion may go on through the blocks it opens and closes, up to the
 * limit; after a line that opens a block it ends with that block.
 */
export function multilineJudge(ctx: CursorContext, maxLines: number): LineJudge {
  const next = ctx.nextLines[0];
  const nextIndent = next === undefined ? -1 : indentWidth(next, ctx.tabSize);
  const minIndent = ctx.lineIndent + (ctx.opensBlock ? 1 : 0);
  let state: BracketState = ctx.brackets;
  /** How many of the frames open at the cursor are still open (the suggestion closes some). */
  let outer = ctx.brackets.frames.length;
  let previous = "";
  let repeats = 0;
  return (line, index) => {
    if (index >= maxLines) return "drop-and-stop";
    const full = index === 0 ? ctx.linePrefix + line : line;
    const trimmed = full.trim();
    const indent = indentWidth(full, ctx.tabSize);
    const ownOpen = state.frames.length - outer;
    if (trimmed !== "" && trimmed === next?.trim() && indent === nextIndent) {
      if (ownOpen <= 0 || fileCloses(ctx, ownFrames(state, ownOpen))) return "drop-and-stop";
    }
    if (trimmed !== "" && !isCloserLine(trimmed)) {
      repeats = trimmed === previous ? repeats + 1 : 0;
      previous = trimmed;
      if (repeats >= 2) return "drop-and-stop";
    }
    const after = scanBrackets(`${line}\n`, ctx.syntax, state);
    /** The first frame open at the cursor (innermost first) that this line closes, if any. */
    const firstClosed = after.low < outer ? ctx.brackets.frames.length - outer : -1;
    const commit = (verdict: "keep" | "keep-and-stop") => {
      state = after;
      outer = Math.min(outer, after.low);
      return verdict;
    };
    // A line inside a string the suggestion opened (a template literal's text) has no indentation to judge.
    const inString = isQuoteFrame(state.frames[state.frames.length - 1]);
    if (index === 0 || trimmed === "" || indent >= minIndent || inString) return commit("keep");
    // The line leaves the cursor's block.
    if (firstClosed !== -1) {
      if (firstClosed < ctx.closedOnLine) return commit("keep-and-stop"); // replaces the auto-inserted closer
      if (firstClosed < ctx.closedInFile) return "drop-and-stop"; // the file has it further on
      return commit("keep"); // the file lacks it: keep closing
    }
    if (isCloserLine(trimmed) && ownOpen > 0) return commit("keep-and-stop");
    return "drop-and-stop";
  };
}

/** The frames the suggestion itself opened and has not closed, innermost last. */
function ownFrames(state: BracketState, count: number): Frame[] {
  return state.frames.slice(state.frames.length - count);
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
  let state: BracketState = ctx.brackets;
  let outer = ctx.brackets.frames.length;
  let lastBalanced = 0;
  for (const [i, line] of lines.entries()) {
    const after = scanBrackets(`${line}\n`, ctx.syntax, state);
    outer = Math.min(outer, after.low);
    state = after;
    if (state.frames.length <= outer) lastBalanced = i + 1;
  }
  const own = state.frames.length - outer;
  if (own <= 0 || lastBalanced === 0 || fileCloses(ctx, ownFrames(state, own))) return lines.length;
  return lastBalanced;
}
