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
const PRETOKENIZE =
  /'s|'t|'re|'ve|'m|'ll|'d|'S|'T|'RE|'VE|'M|'LL|'D|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+/gu;

export interface BpeVocabulary {
  /** Byte-level token strings: the 256 byte symbols first, then one per merge. */
  tokens: string[];
  /** "left right" pairs in merge order (rank). */
  merges: string[];
}

export function trainBpe(text: string, maxMerges: number): BpeVocabulary {
  const symbolOf = byteToUnicode();
  const encoder = new TextEncoder();
  const wordCounts = new Map<string, number>();
  for (const piece of text.match(PRETOKENIZE) ?? []) wordCounts.set(piece, (wordCounts.get(piece) ?? 0) + 1);
  const words = [...wordCounts].map(([piece, count]) => ({
    symbols: [...encoder.encode(piece)].map((b) => symbolOf[b]!),
    count,
  }));
  const tokens = [...symbolOf];
  const known = new Set(tokens);
  const merges: string[] = [];
  for (let m = 0; m < maxMerges; m++) {
    const pairCounts = new Map<string, number>();
    for (const { symbols, count } of words) {
      for (let i = 0; i + 1 < symbols.length; i++) {
        const key = `${symbols[i]} ${symbols[i + 1]}`;
        pairCounts.set(key, (pairCounts.get(key) ?? 0) + count);
      }
    }
    let best: string | undefined;
    let bestCount = 1;
    for (const [key, count] of pairCounts) {
      if (count > bestCount || (count === bestCount && best !== undefined && key < best)) {
        best = key;
        bestCount = count;
      }
    }
    if (best === undefined) break;
    const [left, right] = best.split(" ") as [string, string];
    const merged = left + right;
    merges.push(best);
    // Different splits can merge into the same string: one vocabulary entry per string.
    if (!known.has(merged)) {
      known.add(merged);
      tokens.push(merged);
    }
    for (const word of words) {
      const s = word.symbols;
      for (let i = 0; i + 1 < s.length; i++) {
        if (s[i] === left && s[i + 1] === right) s.splice(i, 2, merged);
      }
    }
  }
  return { tokens, merges };
}
