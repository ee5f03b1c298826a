/**
 * A block of whole lines as text in its document's own line endings. The last line of a document
 * may have no line break: the block then ends without one, so that putting a block back gives the
 * document byte for byte.
 */

export interface BlockText {
  readonly lines: readonly string[];
  readonly eol: "\n" | "\r\n";
  /** Whether the block ends with a line break (false only at the end of a file without one). */
  readonly finalEol: boolean;
}

export function joinBlock(block: BlockText): string {
  if (block.lines.length === 0) return "";
  return block.lines.join(block.eol) + (block.finalEol ? block.eol : "");
}

/** Splits a block's text (as `joinBlock` writes it) back into lines. */
export function splitBlock(text: string, eol: "\n" | "\r\n"): BlockText {
  if (text === "") return { lines: [], eol, finalEol: true };
  const finalEol = text.endsWith(eol);
  const lines = (finalEol ? text.slice(0, -eol.length) : text).split(eol);
  return { lines, eol, finalEol };
}

/**
 * The whole lines of `next` that differ from `current`: the offsets in `current` where they start
 * and end (both at line starts, or the end of the text) and their new text. Editing whole lines
 * never splits a CRLF and keeps the edit small while an answer streams.
 */
export function changedSpan(current: string, next: string): { start: number; end: number; text: string } | undefined {
  if (current === next) return undefined;
  const max = Math.min(current.length, next.length);
  let start = 0;
  while (start < max && current.charCodeAt(start) === next.charCodeAt(start)) start++;
  while (start > 0 && current[start - 1] !== "\n") start--;
  let tail = 0;
  while (tail < max - start && current.charCodeAt(current.length - 1 - tail) === next.charCodeAt(next.length - 1 - tail)) tail++;
  while (tail > 0 && current[current.length - tail - 1] !== "\n") tail--;
  return { start, end: current.length - tail, text: next.slice(start, next.length - tail) };
}
