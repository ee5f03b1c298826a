/** Text handling shared by the CLIP tokenizer and the generator that trains its vocabulary. */

export const START_TOKEN = "<|startoftext|>";
export const END_TOKEN = "<|endoftext|>";
export const END_OF_WORD = "</w>";

// CLIP's pre-tokenizer pattern: special tokens, contractions, letter runs, single digits, other symbols.
const WORD_PATTERN = /<\|startoftext\|>|<\|endoftext\|>|'s|'t|'re|'ve|'m|'ll|'d|[\p{L}]+|[\p{N}]|[^\s\p{L}\p{N}]+/gu;

/** GPT-2's reversible byte -> printable character table, which CLIP uses too. */
export function bytesToUnicode(): string[] {
  const printable: number[] = [];
  const add = (from: number, to: number) => {
    for (let b = from; b <= to; b++) printable.push(b);
  };
  add(33, 126);
  add(161, 172);
  add(174, 255);
  const table = new Array<string>(256);
  let extra = 0;
  for (let b = 0; b < 256; b++) {
    table[b] = String.fromCodePoint(printable.includes(b) ? b : 256 + extra++);
  }
  return table;
}

/** Lower-cases and collapses whitespace, then splits into words encoded with the byte table. */
export function preTokenize(text: string, byteTable: readonly string[]): string[] {
  const cleaned = text.normalize("NFC").replace(/\s+/g, " ").trim().toLowerCase();
  const encoder = new TextEncoder();
  return Array.from(cleaned.matchAll(WORD_PATTERN), (m) =>
    Array.from(encoder.encode(m[0]), (b) => byteTable[b]).join(""),
  );
}

/** A word's initial BPE symbols: one per character, the last one marked as the word's end. */
export function wordSymbols(word: string): string[] {
  const chars = Array.from(word);
  chars[chars.length - 1] += END_OF_WORD;
  return chars;
}
