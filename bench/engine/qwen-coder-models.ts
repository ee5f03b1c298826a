// GGUF files with the exact shapes of Qwen2.5-Coder-0.5B and -1.5B (their published config.json:
// layers, widths, heads, KV heads, feed-forward size, tied embeddings, q/k/v biases, rope base) and
// the real qwen2 vocabulary with Qwen2.5's FIM tokens, with random weights: the compute and memory
// traffic of the models users pull, without downloading them. Written once, a tensor at a time,
// into a cache outside the repository (WISP_BENCH_CACHE, default ~/.cache/wisp-bench).
import { existsSync } from "node:fs";
import { mkdir, open, rename, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ggufHeader, tensorBytes, TensorType } from "../../src/server/models/gguf-writer";
import { llamaTensorShapes, type LlamaSpec } from "../../src/server/models/llama-gguf";
import { randomWeights } from "../../src/server/models/tiny-llama";
import { llamaCppSourceFile } from "../../test/server/support/llama-cpp-source";
import { familyMetadata, realFamilies } from "../../test/server/support/real-families";

export const QWEN_CODER_SIZES = ["0.5b", "1.5b"] as const;
export type QwenCoderSize = (typeof QWEN_CODER_SIZES)[number];
export const BENCH_QUANTS = ["q8_0", "q4_0"] as const;
export type BenchQuant = (typeof BENCH_QUANTS)[number];

/** From Qwen/Qwen2.5-Coder-{0.5B,1.5B}/config.json. Both tie their embeddings; vocab 151936. */
const SHAPES: Record<QwenCoderSize, Pick<LlamaSpec, "embedding" | "layers" | "heads" | "kvHeads" | "feedForward">> = {
  "0.5b": { embedding: 896, layers: 24, heads: 14, kvHeads: 2, feedForward: 4864 },
  "1.5b": { embedding: 1536, layers: 28, heads: 12, kvHeads: 2, feedForward: 8960 },
};

export function qwenCoderSpec(size: QwenCoderSize, quant: BenchQuant): LlamaSpec {
  return {
    name: qwenCoderModelId(size, quant),
    ...SHAPES[size],
    contextLength: 32768,
    tensorType: quant === "q8_0" ? TensorType.Q8_0 : TensorType.Q4_0,
    ropeBase: 1_000_000,
    rmsEpsilon: 1e-6,
    architecture: "qwen2",
    tiedEmbeddings: true,
  };
}

/** The model id the servers list: the file's name without `.gguf`. */
export const qwenCoderModelId = (size: QwenCoderSize, quant: BenchQuant) => `qwen2.5-coder-${size}-shape-${quant}`;

export function benchCacheDir(): string {
  return process.env.WISP_BENCH_CACHE ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "wisp-bench");
}

/**
 * The tensor types llama-quantize gives a q4_0 file: the tied embedding, which is also the output
 * projection, stays q8_0 (its rows, 896 values for 0.5B, are not a multiple of 256 for q6_K; the
 * published 1.5B file has q6_K there, which this writer does not write).
 */
function tensorType(spec: LlamaSpec, name: string, norm: boolean): TensorType {
  if (norm) return TensorType.F32;
  return name === "token_embd.weight" ? TensorType.Q8_0 : spec.tensorType;
}

/** The cached file for `size` and `quant`, written first if missing (0.5B: seconds; 1.5B: a minute or two). */
export async function qwenCoderModel(size: QwenCoderSize, quant: BenchQuant, dir = path.join(benchCacheDir(), "models")): Promise<string> {
  const file = path.join(dir, `${qwenCoderModelId(size, quant)}.gguf`);
  if (existsSync(file)) return file;
  await mkdir(dir, { recursive: true });
  const qwen = realFamilies.find((f) => f.vocab === "qwen2")!;
  const vocabFile = path.join(dir, "..", "ggml-vocab-qwen2.gguf");
  if (!existsSync(vocabFile)) await writeFile(vocabFile, await llamaCppSourceFile("models/ggml-vocab-qwen2.gguf"));
  const spec = qwenCoderSpec(size, quant);
  const { metadata, vocabSize } = await familyMetadata(qwen, vocabFile, spec);
  metadata.set("general.name", { type: "string", value: spec.name });
  const infos = llamaTensorShapes(spec, vocabSize).map(({ name, dims, norm }) => ({ name, dims, norm, type: tensorType(spec, name, norm) }));
  const temp = `${file}.${process.pid}.tmp`;
  const handle = await open(temp, "w");
  try {
    await handle.write(Buffer.concat(ggufHeader(metadata, infos)));
    // A tensor at a time: the 1.5B model's weights as f32 would take 6 GB at once.
    for (const t of infos) await handle.write(tensorBytes({ ...t, data: randomWeights(t.name, t.dims, t.norm) }));
  } catch (error) {
    await handle.close();
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  await rename(temp, file);
  return file;
}
