// The benchmark's stand-ins for Qwen2.5-Coder-0.5B and -1.5B: the published shapes (config.json,
// and the parameter counts Qwen publishes), read back from the written files, and each one served.
// The files are the bench's own, written once into its cache (minutes the first time).
// Not part of `npm test` (it writes 4.5 GB of models, minutes the first time): `npm run test:bench-models`.
import assert from "node:assert/strict";
import { mkdir, symlink } from "node:fs/promises";
import path from "node:path";
import { readGgufFileInfo, type Token } from "node-llama-cpp";
import { BENCH_QUANTS, QWEN_CODER_SIZES, qwenCoderModel, qwenCoderModelId, type BenchQuant, type QwenCoderSize } from "../../bench/engine/qwen-coder-models";
import { startServer, type TestServer } from "../server/server-fixture";

const published: Record<QwenCoderSize, { layers: number; hidden: number; heads: number; kvHeads: number; feedForward: number; parameters: number }> = {
  "0.5b": { layers: 24, hidden: 896, heads: 14, kvHeads: 2, feedForward: 4864, parameters: 494_032_768 },
  "1.5b": { layers: 28, hidden: 1536, heads: 12, kvHeads: 2, feedForward: 8960, parameters: 1_543_714_304 },
};
const GGML_Q4_0 = 2;
const GGML_Q8_0 = 8;
const models = QWEN_CODER_SIZES.flatMap((size) => BENCH_QUANTS.map((quant) => [size, quant] as [QwenCoderSize, BenchQuant]));

describe("Qwen2.5-Coder-shaped benchmark models", function () {
  this.timeout(1_200_000);
  const files = new Map<string, string>();
  let server: TestServer;

  before(async () => {
    for (const [size, quant] of models) files.set(qwenCoderModelId(size, quant), await qwenCoderModel(size, quant));
    server = await startServer({
      prepare: async (dir) => {
        await mkdir(dir, { recursive: true });
        for (const [id, file] of files) await symlink(file, path.join(dir, `${id}.gguf`));
      },
    });
  });
  after(() => server?.close());

  for (const [size, quant] of models) {
    const id = qwenCoderModelId(size, quant);
    it(`${id} has the published shape, vocabulary and tensor types`, async () => {
      const info = await readGgufFileInfo(files.get(id)!, { sourceType: "filesystem", logWarnings: false });
      const meta = info.metadata as unknown as { general: { architecture: string }; qwen2: Record<string, unknown>; tokenizer: { ggml: { tokens: string[] } } };
      const shape = published[size];
      assert.equal(meta.general.architecture, "qwen2");
      assert.deepEqual(
        [meta.qwen2.block_count, meta.qwen2.embedding_length, meta.qwen2.feed_forward_length, meta.qwen2.context_length],
        [shape.layers, shape.hidden, shape.feedForward, 32768],
      );
      const attention = meta.qwen2.attention as Record<string, number>;
      assert.deepEqual([attention.head_count, attention.head_count_kv, attention.layer_norm_rms_epsilon], [shape.heads, shape.kvHeads, Math.fround(1e-6)]);
      assert.equal((meta.qwen2.rope as Record<string, number>).freq_base, 1e6);
      assert.equal(meta.tokenizer.ggml.tokens.length, 151936);
      assert.deepEqual(meta.tokenizer.ggml.tokens.slice(151659, 151662), ["<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>"]);
      const tensors = new Map(info.fullTensorInfo!.map((t) => [t.name, t]));
      assert.equal(tensors.has("output.weight"), false, "tied embeddings: no separate output matrix");
      assert.deepEqual(tensors.get("token_embd.weight")!.dimensions.map(Number), [shape.hidden, 151936]);
      const kvWidth = (shape.hidden / shape.heads) * shape.kvHeads;
      assert.deepEqual(tensors.get("blk.0.attn_k.weight")!.dimensions.map(Number), [shape.hidden, kvWidth]);
      assert.deepEqual(tensors.get("blk.0.attn_k.bias")!.dimensions.map(Number), [kvWidth]);
      assert.deepEqual(tensors.get(`blk.${shape.layers - 1}.ffn_down.weight`)!.dimensions.map(Number), [shape.feedForward, shape.hidden]);
      assert.equal(tensors.get("blk.0.ffn_up.weight")!.ggmlType, quant === "q8_0" ? GGML_Q8_0 : GGML_Q4_0);
      assert.equal(tensors.get("token_embd.weight")!.ggmlType, GGML_Q8_0);
      const parameters = info.fullTensorInfo!.reduce((sum, t) => sum + t.dimensions.reduce((a: number, d) => a * Number(d), 1), 0);
      assert.equal(parameters, shape.parameters);
    });

    it(`${id} is served, with Qwen's fill-in-the-middle tokens`, async () => {
      const listed = (await (await server.fetch("/v1/models")).json()) as { data: { id: string; fim?: boolean }[] };
      assert.equal(listed.data.find((m) => m.id === id)?.fim, true);
      const model = await server.deps.textEngine.model(id, server.deps.registry.get(id)!.path);
      const prompt = server.deps.textEngine.infillPrompt(model, "def area(r):\n    return ", "\n");
      // <|fim_prefix|> first; <|fim_middle|> before the cursor's line.
      assert.equal(prompt[0], 151659);
      assert.equal(model.detokenize(prompt.slice(prompt.indexOf(151660 as Token) + 1)), "    return ");
      const answer = await server.client.completions.create({ model: id, prompt: "def area(r):\n    return ", suffix: "\n", max_tokens: 2, temperature: 0 });
      assert.equal(answer.usage?.prompt_tokens, server.deps.textEngine.healedInfill(model, "def area(r):\n    return ", "\n").prompt.length);
    });
  }
});
