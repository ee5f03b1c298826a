/**
 * Where a streaming markdown answer can be cut so that the part before the cut never renders
 * differently as more text arrives. The panel renders that part once and re-renders only the
 * rest on each frame, which keeps a long answer's per-frame work small.
 */

const fence = /^ {0,3}(`{3,}|~{3,})/;
const listItem = /^(?:[-+*]|\d{1,9}[.)])(?:\s|$)/;

/** A fenced code block still open at the end of the text (its closing fence has not come yet). */
export interface OpenCodeBlock {
  /** Where its opening fence line starts. */
  readonly fenceStart: number;
  /** Where its code starts (after the opening fence line). */
  readonly codeStart: number;
  /** The fence's language ("" when it names none). */
  readonly language: string;
}

interface Scan {
  readonly cut: number;
  readonly open?: OpenCodeBlock;
}

/**
 * One pass over the complete lines. A cut is the start of a line that follows a blank line,
 * outside any code fence, and begins a top-level block that cannot continue what is above it
 * (not indented, not a list item that would join the list above, not a code fence); or the line after the closing
 * fence of a block whose fence starts the line: nothing after it can change that block.
 */
function scan(text: string): Scan {
  let cut = 0;
  let open: { marker: string; topLevel: boolean; block: OpenCodeBlock } | undefined;
  let previousBlank = false;
  let start = 0;
  while (start < text.length) {
    const newline = text.indexOf("\n", start);
    // The last line may still be growing: it is never a cut point.
    if (newline < 0) break;
    const line = text.slice(start, newline);
    const marker = fence.exec(line)?.[1];
    if (open !== undefined) {
      if (marker !== undefined && marker[0] === open.marker[0] && marker.length >= open.marker.length && line.trim() === marker) {
        if (open.topLevel) cut = newline + 1;
        open = undefined;
      }
      previousBlank = false;
    } else {
      const blank = line.trim() === "";
      // Not before a fence: the block belongs with the text above it, which may name its file
      // ("In `src/cart.ts`:"), and a block in a segment of its own would not see that text.
      if (previousBlank && !blank && /^\S/.test(line) && !listItem.test(line) && !line.startsWith(">") && marker === undefined) cut = start;
      if (marker !== undefined) {
        const language = line.slice(line.indexOf(marker) + marker.length).trim().split(/\s+/, 1)[0] ?? "";
        // A fence at the start of the line is a block of its own: not inside a list item or a quote.
        open = { marker, topLevel: line.startsWith(marker), block: { fenceStart: start, codeStart: newline + 1, language } };
      }
      previousBlank = blank;
    }
    start = newline + 1;
  }
  return { cut, ...(open?.topLevel ? { open: open.block } : {}) };
}

/** The offset of the last safe cut in `text`; 0 when there is none yet. */
export function stablePrefixLength(text: string): number {
  return scan(text).cut;
}

/**
 * The top-level fenced code block still being written at the end of `text`, if any: its code can
 * be shown as it grows without rendering the markdown (and highlighting all the code) again.
 */
export function openCodeBlock(text: string): OpenCodeBlock | undefined {
  return scan(text).open;
}

/**
 * Whether `text` may define a reference link (`[1]: https://…`, also in a quote). Such a
 * definition applies to the whole answer, also to segments rendered before it came; a false
 * positive only costs one render of the whole answer.
 */
export function mayDefineReferences(text: string): boolean {
  return /^[ >]*\[[^\]\n]+\]:/m.test(text);
}

/** Characters of a growing code block highlighted together once their lines are complete. */
export const codeChunkChars = 2_000;

/**
 * How much of a growing block's code (from its start) is highlighted for good: whole lines, in
 * chunks of at least `chunk` characters, so each frame highlights only the rest. A chunk may
 * highlight a construct spanning chunks (a long comment) wrongly until the block closes and is
 * rendered whole.
 */
export function frozenCodeLength(code: string, frozen: number, chunk = codeChunkChars): number {
  const lines = code.lastIndexOf("\n") + 1;
  return lines - frozen >= chunk ? lines : frozen;
}
