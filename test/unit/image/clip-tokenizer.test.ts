import assert from "node:assert/strict";
import { END_TOKEN, START_TOKEN } from "../../../src/server/engines/image/clip-text";
import { CLIP_CONTEXT_LENGTH, ClipTokenizer } from "../../../src/server/engines/image/clip-tokenizer";
import { trainClipVocabulary } from "../../../src/server/engines/image/default-model/clip-vocab-trainer";

describe("CLIP BPE tokenizer", () => {
  const { vocab, merges } = trainClipVocabulary("a photo of a cat. a photo of a dog. the cat and the dog, a photo", 50);
  const tokenizer = new ClipTokenizer(new Map(Object.entries(vocab)), merges);
  const tokenText = (ids: number[]) => ids.map((id) => Object.keys(vocab).find((t) => vocab[t] === id)).join(" ");

  it("lays the vocabulary out as CLIP does: bytes, bytes with </w>, merges, then start and end", () => {
    assert.equal(vocab["!"], 0);
    assert.equal(vocab["!</w>"], 256);
    assert.equal(vocab[START_TOKEN], Object.keys(vocab).length - 2);
    assert.equal(vocab[END_TOKEN], Object.keys(vocab).length - 1);
  });

  it("merges frequent words into single tokens and spells others byte by byte", () => {
    assert.equal(tokenText(tokenizer.tokenize("photo cat")), "photo</w> cat</w>");
    assert.equal(tokenText(tokenizer.tokenize("zebra")), "z e b r a</w>");
  });

  it("lower-cases, collapses whitespace and splits punctuation like CLIP", () => {
    assert.deepEqual(tokenizer.tokenize("  A   Photo,\tof a CAT!"), tokenizer.tokenize("a photo , of a cat !"));
  });

  it("wraps the tokens in start/end and pads with the end token to 77", () => {
    const ids = tokenizer.encode("a cat");
    const words = tokenizer.tokenize("a cat");
    assert.equal(ids.length, CLIP_CONTEXT_LENGTH);
    assert.deepEqual(Array.from(ids.slice(0, words.length + 2)), [vocab[START_TOKEN], ...words, vocab[END_TOKEN]]);
    assert.ok(ids.slice(words.length + 2).every((id) => id === vocab[END_TOKEN]));
  });

  it("truncates long prompts so the end token stays", () => {
    const ids = tokenizer.encode("cat ".repeat(200));
    assert.equal(ids[CLIP_CONTEXT_LENGTH - 1], vocab[END_TOKEN]);
    assert.equal(ids[CLIP_CONTEXT_LENGTH - 2], vocab["cat</w>"]);
  });

  it("encodes any Unicode through its UTF-8 bytes", () => {
    assert.equal(tokenizer.tokenize("🦊").length, 4);
  });
});
