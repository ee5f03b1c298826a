import { prefixStartOffset } from "./document-window";
import { safeStart } from "../base/surrogates";

/**
 * A notebook cell's prefix with the code cells above it first: a cell builds on what they import
 * and define (`df.` in cell 3 is the DataFrame cell 1 read), as a script builds on its first lines.
 * The cells count as one document, each ending in a blank line, so `prefixOffset` stays an offset
 * in it and the window it starts on keeps its place while the user types in the cell.
 */
export function withEarlierCells(earlierCells: readonly string[], prefix: string, prefixOffset: number): { prefix: string; prefixOffset: number } {
  const head = earlierCells
    .map((cell) => cell.replace(/\r\n/g, "\n").replace(/\s+$/, ""))
    .filter((cell) => cell !== "")
    .map((cell) => `${cell}\n\n`)
    .join("");
  // The cell's own text was cut already: the cells above lie before the cut.
  if (prefixOffset > 0) return { prefix, prefixOffset: head.length + prefixOffset };
  const whole = head + prefix;
  const start = safeStart(whole, prefixStartOffset(whole.length));
  return { prefix: whole.slice(start), prefixOffset: start };
}
