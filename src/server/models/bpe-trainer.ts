// Byte-level BPE training (GPT-2 style) on a text, deterministic: ties between equally frequent
// pairs break on the pair's text, so the same input always yields the same vocabulary.

/** GPT-2's reversible byte -> printable character map, which GGUF "gpt2" vocabularies use. */
export function byteToUnicode(): string[] {
  const printable: number[] = [];
  for (let b = 33; b <= 126; b++) printable.push(b);
  for (let b = 161; b <= 172; b++) printable.push(b);
  for (let b = 174; b <= 255; b++) printable.push(b);
  const map: string[] = new Array(256);
  let extra = 0;
  for (let b = 0; b < 256; b++) {
    map[b] = printable.includes(b) ? String.fromCharCode(b) : String.fromCharCode(256 + extra++);
  }
  return map;
}

// Qwen2's pre-tokenizer split (tokenizer.ggml.pre = qwen2), so training sees the same words
// llama.cpp will see; JS has no inline (?i:) group, hence the spelled-out contractions.
export const PRETOKENIZE =
  /'s|'t|'re|'ve|'m|'ll|'d|'S|'T|'RE|'VE|'M|'LL|'D|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+/gu;

export interface BpeVocabulary {
  /** Byte-level token strings: the 256 byte symbols first, then one per merge. */
  tokens: string[];
  /** "left right" pairs in merge order (rank). */
  merges: string[];
}

/**
 * Trains `maxMerges` merges: each round merges the most frequent adjacent pair (at least twice
 * seen; ties go to the smaller pair text). Pair counts are kept up to date incrementally (only the
 * words holding the merged pair are recounted) and the best pair comes from a heap, so a corpus of
 * megabytes trains in seconds.
 */
export function trainBpe(text: string | Iterable<string>, maxMerges: number): BpeVocabulary {
  const symbolOf = byteToUnicode();
  const encoder = new TextEncoder();
  const wordCounts = new Map<string, number>();
  for (const part of typeof text === "string" ? [text] : text) {
    for (const piece of part.match(PRETOKENIZE) ?? []) wordCounts.set(piece, (wordCounts.get(piece) ?? 0) + 1);
  }
  const words = [...wordCounts].map(([piece, count]) => ({
    symbols: [...encoder.encode(piece)].map((b) => symbolOf[b]!),
    count,
  }));
  const pairs = new PairCounts();
  words.forEach((word, index) => pairs.addWord(word.symbols, word.count, index));
  const tokens = [...symbolOf];
  const known = new Set(tokens);
  const merges: string[] = [];
  for (let m = 0; m < maxMerges; m++) {
    const best = pairs.best();
    if (best === undefined) break;
    const [left, right] = best.split(" ") as [string, string];
    const merged = left + right;
    merges.push(best);
    // Different splits can merge into the same string: one vocabulary entry per string.
    if (!known.has(merged)) {
      known.add(merged);
      tokens.push(merged);
    }
    for (const index of pairs.wordsWith(best)) {
      const word = words[index]!;
      pairs.removeWord(word.symbols, word.count);
      word.symbols = mergePair(word.symbols, left, right, merged);
      pairs.addWord(word.symbols, word.count, index);
    }
    pairs.publishChanges();
  }
  return { tokens, merges };
}

/** Left to right, non-overlapping: "a a a" with (a, a) becomes "aa a". */
function mergePair(symbols: string[], left: string, right: string, merged: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < symbols.length; i++) {
    if (i + 1 < symbols.length && symbols[i] === left && symbols[i + 1] === right) {
      out.push(merged);
      i++;
    } else out.push(symbols[i]!);
  }
  return out;
}

/** Adjacent-pair counts over all words, the words each pair occurs in, and a heap for the best. */
class PairCounts {
  private readonly counts = new Map<string, number>();
  private readonly words = new Map<string, Set<number>>();
  private readonly changed = new Set<string>();
  private readonly heap = new PairHeap();

  addWord(symbols: readonly string[], count: number, index: number): void {
    for (let i = 0; i + 1 < symbols.length; i++) {
      const key = `${symbols[i]} ${symbols[i + 1]}`;
      this.counts.set(key, (this.counts.get(key) ?? 0) + count);
      let holders = this.words.get(key);
      if (!holders) this.words.set(key, (holders = new Set()));
      holders.add(index);
      this.changed.add(key);
    }
  }

  removeWord(symbols: readonly string[], count: number): void {
    for (let i = 0; i + 1 < symbols.length; i++) {
      const key = `${symbols[i]} ${symbols[i + 1]}`;
      const left = (this.counts.get(key) ?? 0) - count;
      if (left > 0) this.counts.set(key, left);
      else this.counts.delete(key);
      this.changed.add(key);
    }
  }

  /** Word indices that may hold `key` (a superset: words that lost it are recounted harmlessly). */
  wordsWith(key: string): number[] {
    const holders = [...(this.words.get(key) ?? [])];
    this.words.delete(key);
    return holders;
  }

  /** Pushes the counts changed since the last call onto the heap. */
  publishChanges(): void {
    for (const key of this.changed) {
      const count = this.counts.get(key);
      if (count !== undefined && count > 1) this.heap.push(key, count);
    }
    this.changed.clear();
  }

  /** The most frequent pair seen at least twice (ties: the smaller text), or undefined. */
  best(): string | undefined {
    this.publishChanges();
    for (;;) {
      const top = this.heap.peek();
      if (top === undefined) return undefined;
      // Entries are not removed when a count changes: an entry is current only if it still matches.
      if (this.counts.get(top.key) === top.count) return top.key;
      this.heap.pop();
    }
  }
}

interface PairEntry {
  key: string;
  count: number;
}

/** Binary max-heap on (count, then the smaller key). */
class PairHeap {
  private readonly items: PairEntry[] = [];

  private static before(a: PairEntry, b: PairEntry): boolean {
    return a.count > b.count || (a.count === b.count && a.key < b.key);
  }

  push(key: string, count: number): void {
    const items = this.items;
    items.push({ key, count });
    for (let i = items.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (!PairHeap.before(items[i]!, items[parent]!)) break;
      [items[i], items[parent]] = [items[parent]!, items[i]!];
      i = parent;
    }
  }

  peek(): PairEntry | undefined {
    return this.items[0];
  }

  pop(): void {
    const items = this.items;
    const last = items.pop();
    if (last === undefined || items.length === 0) return;
    items[0] = last;
    for (let i = 0; ; ) {
      const l = 2 * i + 1;
      const r = l + 1;
      let top = i;
      if (l < items.length && PairHeap.before(items[l]!, items[top]!)) top = l;
      if (r < items.length && PairHeap.before(items[r]!, items[top]!)) top = r;
      if (top === i) return;
      [items[i], items[top]] = [items[top]!, items[i]!];
      i = top;
    }
  }
}
