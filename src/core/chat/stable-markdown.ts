/**
 * Where a streaming markdown answer can be cut so that the part before the cut never renders
 * differently as more text arrives. The panel renders that part once and re-renders only the
 * rest on each frame, which keeps a long answer's per-frame work small.
 */

const fence = /^ {0,3}(`{3,}|~{3,})/;
const listItem = /^(?:[-+*]|\d{1,9}[.)])(?:\s|$)/;

/**
 * The offset of the last safe cut in `text`: the start of a line that follows a blank line,
 * outside any code fence, and begins a top-level block that cannot continue what is above it
 * (not indented, not a list item that would join the list above). 0 when there is none yet.
 */
export function stablePrefixLength(text: string): number {
  let cut = 0;
  let open: string | undefined;
  let previousBlank = false;
  let start = 0;
  while (start < text.length) {
    const newline = text.indexOf("\n", start);
    // The last line may still be growing: it is never a cut point.
    if (newline < 0) break;
    const line = text.slice(start, newline);
    const marker = fence.exec(line)?.[1];
    if (open !== undefined) {
      if (marker !== undefined && marker[0] === open[0] && marker.length >= open.length && line.trim() === marker) open = undefined;
      previousBlank = false;
    } else {
      const blank = line.trim() === "";
      if (previousBlank && !blank && /^\S/.test(line) && !listItem.test(line) && !line.startsWith(">")) cut = start;
      if (marker !== undefined) open = marker;
      previousBlank = blank;
    }
    start = newline + 1;
  }
  return cut;
}
