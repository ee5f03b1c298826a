import { bracketBalance, indentWidth, isCloserLine, type CursorContext } from "./cursor-context";
import type { LineJudge } from "./filters";

/**
 * Where a multi-line suggestion ends, decided line by line while it streams:
 * - at the line limit;
 * - where it reaches the code that already follows the cursor;
 * - where it leaves the cursor's block (a line indented less than the cursor line, or not deeper
 *   than it when the cursor line opens a block), keeping one line that closes a bracket still open;
 * - after the line that closes the block opened on the cursor line or by the suggestion;
 * - where a small model starts repeating the same line (closing lines may repeat).
 */
export function multilineJudge(ctx: CursorContext, maxLines: number): LineJudge {
  const nextLine = ctx.nextLines[0];
  const minIndent = ctx.lineIndent + (ctx.opensBlock ? 1 : 0);
  let previous = "";
  let repeats = 0;
  return (line, index, kept) => {
    if (index >= maxLines) return "drop-and-stop";
    const trimmed = (index === 0 ? ctx.linePrefix + line : line).trim();
    if (trimmed !== "" && trimmed === nextLine) return "drop-and-stop";
    if (trimmed !== "" && !isCloserLine(trimmed)) {
      repeats = trimmed === previous ? repeats + 1 : 0;
      previous = trimmed;
      if (repeats >= 2) return "drop-and-stop";
    }
    if (index === 0 || trimmed === "") return "keep";
    const open = bracketBalance(ctx.linePrefix + kept);
    const closes = isCloserLine(trimmed) && open > 0;
    if (indentWidth(line, ctx.tabSize) < minIndent) return closes ? "keep-and-stop" : "drop-and-stop";
    // The block the cursor line (or the suggestion) opened is complete: one block at a time.
    return closes && open + bracketBalance(trimmed) <= 0 ? "keep-and-stop" : "keep";
  };
}
