// Fill-in-the-middle cuts of a source file, shaped like what the editor asks for: the cursor in the
// middle of a line (the rest of the line to write), on a fresh line after the editor's indentation
// (a few lines to write), or at the end of a finished line (nothing to write).
export interface FimCut {
  prefix: string;
  middle: string;
  suffix: string;
}

export type Pick = (n: number) => number;

const PREFIX_CHARS = 4000;
const SUFFIX_CHARS = 700;

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}

/** The suffix is cut at a line end, as the editor's suffix window does. */
function suffixWindow(text: string, from: number): string {
  const rest = text.slice(from, from + SUFFIX_CHARS);
  if (from + SUFFIX_CHARS >= text.length) return rest;
  const cut = rest.lastIndexOf("\n");
  return cut > 0 ? rest.slice(0, cut) : rest;
}

function cutAt(text: string, start: number, end: number): FimCut {
  return { prefix: text.slice(Math.max(0, start - PREFIX_CHARS), start), middle: text.slice(start, end), suffix: suffixWindow(text, end) };
}

/** Where ghost text is usually asked for: after a space or a punctuation mark, not inside a word. */
const BOUNDARY = /[\s([{,=.:;<>!+\-*/&|?]/;

/** The positions in (from, end) right after a boundary character: where a typist pauses. */
export function wordBoundaries(text: string, from: number, end: number): number[] {
  const boundaries: number[] = [];
  for (let p = from + 1; p < end; p++) if (BOUNDARY.test(text[p - 1]!)) boundaries.push(p);
  return boundaries;
}

/**
 * A cursor position in [from, end): four times in five at a word boundary when the line has one
 * (where a typist pauses), else anywhere (inside a word too).
 */
export function cursorIn(text: string, from: number, end: number, pick: Pick): number {
  const boundaries = wordBoundaries(text, from, end);
  if (boundaries.length > 0 && pick(5) < 4) return boundaries[pick(boundaries.length)]!;
  return from + pick(end - from);
}

/** One random cut of `text`, or undefined when the file has no line that fits the kind drawn. */
export function fimCut(text: string, pick: Pick): FimCut | undefined {
  const starts = lineStarts(text);
  const lineEnd = (l: number) => (l + 1 < starts.length ? starts[l + 1]! - 1 : text.length);
  const line = (l: number) => text.slice(starts[l]!, lineEnd(l));
  const indent = (l: number) => line(l).search(/\S|$/);
  const l = pick(starts.length);
  const content = line(l);
  if (content.trim().length < 2) return undefined;
  const from = starts[l]! + indent(l);
  const kind = pick(100);
  if (kind < 60) {
    // Mid-line: the rest of the line, or (one time in six) a piece of it with its end in the suffix.
    const at = cursorIn(text, from, lineEnd(l), pick);
    if (pick(6) === 0) {
      const stop = at + 1 + pick(lineEnd(l) - at);
      return cutAt(text, at, stop);
    }
    return cutAt(text, at, lineEnd(l));
  }
  if (kind < 75) {
    // The rest of the line and the next few.
    const at = cursorIn(text, from, lineEnd(l), pick);
    const last = Math.min(starts.length - 1, l + 1 + pick(4));
    return cutAt(text, at, lineEnd(last));
  }
  if (kind < 99) {
    // A fresh line after its indentation: the next one to five lines.
    const last = Math.min(starts.length - 1, l + pick(5));
    return cutAt(text, from, lineEnd(last));
  }
  // At the end of a finished line: nothing belongs there.
  return cutAt(text, lineEnd(l), lineEnd(l));
}

/** A window of whole lines starting at a random line, for plain next-token training. */
export function lmWindow(text: string, pick: Pick, chars: number): string {
  const starts = lineStarts(text);
  const start = starts[pick(starts.length)]!;
  return text.slice(start, start + chars);
}

/** The special token ids a fill-in-the-middle example is framed with. */
export interface FimTokenIds {
  prefix: number;
  suffix: number;
  middle: number;
  end: number;
}

/**
 * A cut's training tokens in the suffix-middle-prefix layout (FimLayout in llama-gguf.ts), the
 * server's prompt for that cut followed by the middle and the end token: the middle continues the
 * prefix, so the model fills in with what it learns from continuing code. Prefix and middle are
 * tokenized apart, as the server tokenizes a prefix that ends at the cursor. `middleFrom`: the
 * middle's first token.
 */
export function suffixMiddlePrefix(cut: { prefix: readonly number[]; suffix: readonly number[]; middle: readonly number[] }, ids: FimTokenIds): { ids: number[]; middleFrom: number } {
  const prompt = [ids.prefix, ids.suffix, ...cut.suffix, ids.middle, ...cut.prefix];
  return { ids: [...prompt, ...cut.middle, ids.end], middleFrom: prompt.length };
}
