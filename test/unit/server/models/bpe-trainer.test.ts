import assert from "node:assert/strict";
import { PRETOKENIZE, trainBpe } from "../../../../src/server/models/bpe-trainer";
import { TRAINING_CORPUS } from "../../../../src/server/models/corpus";

/** The plain definition: recount every pair each round, merge the most frequent (ties: smaller text). */
function referenceBpe(words: Map<string[], number>, maxMerges: number): string[] {
  const merges: string[] = [];
  const list = [...words].map(([symbols, count]) => ({ symbols: [...symbols], count }));
  for (let m = 0; m < maxMerges; m++) {
    const counts = new Map<string, number>();
    for (const { symbols, count } of list) for (let i = 0; i + 1 < symbols.length; i++) counts.set(`${symbols[i]} ${symbols[i + 1]}`, (counts.get(`${symbols[i]} ${symbols[i + 1]}`) ?? 0) + count);
    let best: string | undefined;
    let bestCount = 1;
    for (const [key, count] of counts) if (count > bestCount || (count === bestCount && best !== undefined && key < best)) [best, bestCount] = [key, count];
    if (best === undefined) break;
    merges.push(best);
    const [left, right] = best.split(" ") as [string, string];
    for (const word of list) {
      const out: string[] = [];
      for (let i = 0; i < word.symbols.length; i++) {
        if (word.symbols[i] === left && word.symbols[i + 1] === right) out.push(left + right), i++;
        else out.push(word.symbols[i]!);
      }
      word.symbols = out;
    }
  }
  return merges;
}

describe("trainBpe", () => {
  it("learns the merges the plain definition gives, in the same order", () => {
    // Enough text for a few hundred merges, with repeats that make ties and overlapping pairs.
    const text = `${TRAINING_CORPUS} aaaa aaa aa ${TRAINING_CORPUS.toUpperCase()} banana bandana`;
    const { merges } = trainBpe(text, 600);
    // The reference sees the same pre-tokenized words as symbol lists: take them from a 0-merge run.
    const base = trainBpe(text, 0);
    assert.equal(base.merges.length, 0);
    const symbolOf = new Map(base.tokens.map((t) => [t, t]));
    assert.ok(symbolOf.size === 256);
    const words = new Map<string[], number>();
    const pieces = text.match(PRETOKENIZE) ?? [];
    const counts = new Map<string, number>();
    for (const p of pieces) counts.set(p, (counts.get(p) ?? 0) + 1);
    const encoder = new TextEncoder();
    for (const [piece, count] of counts) words.set([...encoder.encode(piece)].map((b) => base.tokens[b]!), count);
    assert.deepEqual(merges, referenceBpe(words, 600));
    assert.ok(merges.length > 300, `${merges.length} merges`);
  });

  it("takes a list of texts as one corpus", () => {
    const parts = ["def add(a, b):\n    return a + b\n", "function add(a, b) { return a + b; }\n", "add(1, 2)\n"];
    assert.deepEqual(trainBpe(parts, 50), trainBpe(parts.join(""), 50));
  });
});
