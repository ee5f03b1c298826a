import assert from "node:assert/strict";
import type { LlamaModel, Token } from "node-llama-cpp";
import { TokenTexts } from "../../../src/server/engines/text/token-texts";

/**
 * The parts of a loaded model the tables are built from: a SentencePiece-style vocabulary of
 * `count` tokens (searched by their texts), token 0 ending generation. `failing` makes detokenize throw.
 */
function vocabulary(count: number) {
  const texts = Array.from({ length: count }, (_, t) => (t % 3 === 0 ? `\nline${t}` : `word${t}`));
  const state = { failing: false, detokenized: 0 };
  const model = {
    disposed: false,
    fileInfo: { metadata: { tokenizer: { ggml: { model: "llama", tokens: texts } } } },
    detokenize(tokens: Token[]) {
      if (state.failing) throw new Error("detokenize failed");
      state.detokenized++;
      return tokens.map((t) => texts[t]).join("");
    },
    isEogToken: (t: Token) => t === 0,
  };
  return { model: model as unknown as LlamaModel, state };
}

// The real vocabularies (Qwen's, Llama 3's...) are built in test/server/real-tokenizers.test.ts; here
// how the build is scheduled and what a failed one leaves.
describe("a model's token tables, built ahead", () => {
  it("builds a slice of the vocabulary per turn of the event loop, other work running between them", async () => {
    const { model, state } = vocabulary(100_000);
    const texts = new TokenTexts();
    const seen: number[] = [];
    let turns = true;
    const other = (async () => {
      while (turns) {
        seen.push(state.detokenized);
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    await texts.prepare(model);
    turns = false;
    await other;
    assert.ok(new Set(seen.filter((n) => n > 0 && n < 100_000)).size >= 3, `other work saw the build at ${[...new Set(seen)].join(", ")} tokens`);
    assert.deepEqual(texts.counts, { builtAtLoad: 1, builtOnRequest: 0 });
    const healed = [...texts.healingBias(model, new Map(), "word1000").keys()].sort((a, b) => a - b);
    // 1000 and 10000-10009, but for the multiples of 3 (lines).
    assert.deepEqual(healed, [1000, 10000, 10001, 10003, 10004, 10006, 10007, 10009]);
  });

  it("leaves a failed build to the request that needs it, which meets the error, and builds again after", async () => {
    const { model, state } = vocabulary(40_000);
    const texts = new TokenTexts();
    state.failing = true;
    await texts.prepare(model);
    assert.throws(() => texts.healingBias(model, new Map(), "word1"), /detokenize failed/);
    state.failing = false;
    assert.equal(texts.lineEnds(model)[0], 0, "token 0 ends generation");
    assert.deepEqual(texts.counts, { builtAtLoad: 0, builtOnRequest: 1 });
  });
});
