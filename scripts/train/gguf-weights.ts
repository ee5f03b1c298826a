// A shipped GGUF back into what training starts from: weights.bin and weights.json (train.py's
// layout, for --init) and the tokenizer.json its dataset had (build-dataset.ts --tokenizer), so
// models/wisp-coder.gguf can be taken further on a grown corpus without the run that made it.
//   npx tsx scripts/train/gguf-weights.ts [--gguf models/wisp-coder.gguf] --out DIR
// Quantized and f16 tensors are widened to float32: the model starts where the shipped file is, not
// where its training ended (q8_0 moves a weight by at most half a step of its block's scale).
import { mkdir, open, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { readGgufFileInfo } from "node-llama-cpp";
import { float16ToNumber } from "../../src/core/base/float16";
import { blockFormats, TensorType, tensorByteLength } from "../../src/server/models/gguf-writer";
import { ggufBpe } from "./gguf-vocabulary";

const { values } = parseArgs({ options: { gguf: { type: "string", default: "models/wisp-coder.gguf" }, out: { type: "string" } } });
if (!values.out) throw new Error("--out DIR is required");
const info = await readGgufFileInfo(values.gguf!, { sourceType: "filesystem", readTensorInfo: true, logWarnings: false });
const arch = info.architectureMetadata as Record<string, unknown> & { rope?: { freq_base?: number }; attention?: { head_count?: number; head_count_kv?: number } };
const bpe = ggufBpe(info);
const vocabSize = (info.metadata as unknown as { tokenizer: { ggml: { tokens: string[] } } }).tokenizer.ggml.tokens.length;

const layers = Number(arch.block_count);
const spec = {
  embedding: Number(arch.embedding_length), layers, heads: Number(arch.attention?.head_count), kvHeads: Number(arch.attention?.head_count_kv ?? arch.attention?.head_count),
  feedForward: Number(arch.feed_forward_length), contextLength: Number(arch.context_length), ropeBase: Number(arch.rope?.freq_base ?? 10000), vocabSize,
};

// train.py's state_dict order, which its load_weights pairs one to one with weights.json's entries.
const perBlock = ["attn_norm", "attn_q", "attn_k", "attn_v", "attn_output", "ffn_norm", "ffn_gate", "ffn_up", "ffn_down"];
const order = ["token_embd.weight", ...Array.from({ length: layers }, (_, i) => perBlock.map((n) => `blk.${i}.${n}.weight`)).flat(), "output_norm.weight", "output.weight"];
const byName = new Map((info.tensorInfo ?? []).map((t) => [t.name, t]));

function widen(type: TensorType, bytes: Buffer, count: number): Float32Array {
  if (type === TensorType.F32) return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + count * 4));
  if (type === TensorType.F16) return Float32Array.from({ length: count }, (_, i) => float16ToNumber(bytes.readUInt16LE(2 * i)));
  const format = blockFormats.get(type);
  if (format) return format.dequantize(bytes);
  throw new Error(`tensor type ${type} is not read here (f32, f16, q8_0, q5_0 and q4_0 are)`);
}

await mkdir(values.out, { recursive: true });
const file = await open(values.gguf!);
const tensors: { name: string; shape: number[]; offset: number }[] = [];
const parts: Buffer[] = [];
let offset = 0;
for (const name of order) {
  const t = byName.get(name);
  if (!t) throw new Error(`${values.gguf} has no tensor ${name}`);
  const dims = t.dimensions.map(Number);
  const count = dims.reduce((a, b) => a * b, 1);
  const type = t.ggmlType as number as TensorType;
  const bytes = Buffer.alloc(tensorByteLength({ name, dims, type }));
  await file.read(bytes, 0, bytes.length, Number(t.fileOffset));
  const values32 = widen(type, bytes, count);
  parts.push(Buffer.from(values32.buffer, values32.byteOffset, values32.byteLength));
  // torch's [out, in] is ggml's dims reversed; the values are in the same row-major order.
  tensors.push({ name, shape: [...dims].reverse(), offset });
  offset += values32.byteLength;
}
await file.close();
await writeFile(path.join(values.out, "weights.bin"), Buffer.concat(parts));
await writeFile(path.join(values.out, "weights.json"), JSON.stringify({ spec, tensors }, null, 1));
await writeFile(path.join(values.out, "tokenizer.json"), JSON.stringify(bpe));
process.stdout.write(`wrote ${values.out}: ${tensors.length} tensors (${(offset / 2 ** 20).toFixed(1)} MiB float32), ${bpe.tokens.length} tokens and ${bpe.merges.length} merges\n`);
