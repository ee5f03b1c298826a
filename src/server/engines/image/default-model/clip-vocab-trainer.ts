import { END_OF_WORD, END_TOKEN, START_TOKEN, bytesToUnicode, preTokenize, wordSymbols } from "../clip-text";

export interface ClipVocabulary {
  vocab: Record<string, number>;
  merges: string[];
}

/**
 * Trains a small CLIP-layout BPE vocabulary on a text: the 256 byte symbols, the same with the
 * end-of-word marker, one token per learned merge, then the start/end tokens, exactly as
 * CLIP's vocab.json is ordered. Ties break on the pair's text, so the result is deterministic.
 */
export function trainClipVocabulary(corpus: string, maxMerges: number): ClipVocabulary {
  const byteTable = bytesToUnicode();
  const words = new Map<string, { symbols: string[]; count: number }>();
  for (const word of preTokenize(corpus, byteTable)) {
    const entry = words.get(word);
    if (entry) entry.count++;
    else words.set(word, { symbols: wordSymbols(word), count: 1 });
  }

  const merges: string[] = [];
  while (merges.length < maxMerges) {
    const best = mostFrequentPair(words.values());
    if (!best) break;
    merges.push(best.join(" "));
    for (const entry of words.values()) entry.symbols = mergePair(entry.symbols, best[0], best[1]);
  }

  // CLIP lists the byte symbols by code point ("!" is 0). Different merges can spell the same
  // token: keep its first id.
  const symbols = [...byteTable].sort((a, b) => a.codePointAt(0)! - b.codePointAt(0)!);
  const tokens = [
    ...new Set([...symbols, ...symbols.map((c) => c + END_OF_WORD), ...merges.map((m) => m.replace(" ", ""))]),
    START_TOKEN,
    END_TOKEN,
  ];
  return { vocab: Object.fromEntries(tokens.map((t, i) => [t, i])), merges };
}

function mostFrequentPair(entries: Iterable<{ symbols: string[]; count: number }>): [string, string] | undefined {
  const counts = new Map<string, number>();
  for (const { symbols, count } of entries) {
    for (let i = 0; i < symbols.length - 1; i++) {
      const key = `${symbols[i]} ${symbols[i + 1]}`;
      counts.set(key, (counts.get(key) ?? 0) + count);
    }
  }
  let bestKey: string | undefined;
  let bestCount = 1; // a pair seen once teaches nothing
  for (const [key, count] of counts) {
    if (count > bestCount || (count === bestCount && bestKey !== undefined && key < bestKey)) {
      [bestKey, bestCount] = [key, count];
    }
  }
  return bestKey?.split(" ") as [string, string] | undefined;
}

function mergePair(symbols: string[], left: string, right: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < symbols.length; i++) {
    if (i < symbols.length - 1 && symbols[i] === left && symbols[i + 1] === right) {
      out.push(left + right);
      i++;
    } else out.push(symbols[i]);
  }
  return out;
}
