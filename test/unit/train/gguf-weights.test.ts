import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { trainBpe } from "../../../src/server/models/bpe-trainer";
import { TensorType } from "../../../src/server/models/gguf-writer";
import { encodeLlamaGguf, llamaVocabulary, type LlamaSpec } from "../../../src/server/models/llama-gguf";

// scripts/train/gguf-weights.ts: a shipped GGUF back into train.py's weights and its dataset's
// tokenizer, so that `train-model --init` can take the shipped model further.
describe("gguf-weights.ts: a GGUF back into training's weights and tokenizer", function () {
  this.timeout(60_000);
  const bpe = trainBpe("function add(a, b) { return a + b; }\nconst total = add(1, 2);\n".repeat(4), 12);
  const spec = { name: "t", embedding: 32, layers: 2, heads: 2, kvHeads: 2, feedForward: 64, contextLength: 64, ropeBase: 10000 };
  // Each tensor's values are distinct from every other's: a misplaced tensor changes what is read.
  const valuesOf = (name: string, dims: readonly number[]) => {
    const seed = [...name].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);
    return Float32Array.from({ length: dims.reduce((a, b) => a * b, 1) }, (_, i) => Math.sin(seed + i * 0.37) * 0.05);
  };
  let dir: string;
  before(() => (dir = mkdtempSync(path.join(os.tmpdir(), "wisp-gguf-weights-"))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  function convert(type: TensorType): { spec: Record<string, number>; tensors: { name: string; shape: number[]; offset: number }[]; weights: Float32Array; bpe: unknown } {
    const gguf = path.join(dir, `${type}.gguf`);
    writeFileSync(gguf, Buffer.concat(encodeLlamaGguf({ ...spec, tensorType: type } as LlamaSpec, llamaVocabulary(bpe), valuesOf)));
    const out = path.join(dir, `out-${type}`);
    execFileSync(process.execPath, ["--import", "tsx", "scripts/train/gguf-weights.ts", "--gguf", gguf, "--out", out], { stdio: "pipe" });
    const raw = readFileSync(path.join(out, "weights.bin"));
    return {
      ...JSON.parse(readFileSync(path.join(out, "weights.json"), "utf8")),
      weights: new Float32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4),
      bpe: JSON.parse(readFileSync(path.join(out, "tokenizer.json"), "utf8")),
    };
  }

  it("gives float32 weights back exactly, in train.py's order with torch's shapes, and the BPE without the special tokens", () => {
    const read = convert(TensorType.F32);
    assert.deepEqual(read.spec, { embedding: 32, layers: 2, heads: 2, kvHeads: 2, feedForward: 64, contextLength: 64, ropeBase: 10000, vocabSize: llamaVocabulary(bpe).tokens.length });
    assert.deepEqual(read.bpe, bpe);
    const block = (i: number) => ["attn_norm", "attn_q", "attn_k", "attn_v", "attn_output", "ffn_norm", "ffn_gate", "ffn_up", "ffn_down"].map((n) => `blk.${i}.${n}.weight`);
    assert.deepEqual(read.tensors.map((t) => t.name), ["token_embd.weight", ...block(0), ...block(1), "output_norm.weight", "output.weight"]);
    const gate = read.tensors.find((t) => t.name === "blk.0.ffn_gate.weight")!;
    assert.deepEqual(gate.shape, [64, 32], "torch's [out, in]: ggml's dims reversed");
    for (const t of read.tensors) {
      const count = t.shape.reduce((a, b) => a * b, 1);
      const got = read.weights.subarray(t.offset / 4, t.offset / 4 + count);
      assert.deepEqual(Array.from(got), Array.from(valuesOf(t.name, [...t.shape].reverse())), t.name);
    }
  });

  it("widens q8_0 to within half a quantization step (and the f16 scale's rounding) of the weights it was made from", () => {
    const read = convert(TensorType.Q8_0);
    const q = read.tensors.find((t) => t.name === "blk.1.attn_q.weight")!;
    const want = valuesOf(q.name, [32, 32]);
    const got = read.weights.subarray(q.offset / 4, q.offset / 4 + want.length);
    const largest = Math.max(...want.map((v, i) => Math.abs(v - got[i]!)));
    // Steps of amax / 127 (amax at most 0.05 here), the scale itself rounded to f16 (11 bits).
    assert.ok(largest > 0 && largest <= 0.05 / 127 / 2 + 0.05 / 2 ** 11, `off by up to ${largest}`);
  });
});
