// Builds the project's own llama-architecture GGUF: a byte-level BPE tokenizer trained on the
// built-in corpus, ChatML chat template, FIM/EOT tokens and seeded random weights. Deterministic:
// the same size always produces the same bytes.
import { trainBpe } from "./bpe-trainer";
import { TRAINING_CORPUS } from "./corpus";
import { encodeGguf, TensorType, type GgufTensor, type GgufValue } from "./gguf-writer";

export interface TinyLlamaSpec {
  name: string;
  embedding: number;
  layers: number;
  heads: number;
  kvHeads: number;
  feedForward: number;
  contextLength: number;
  maxMerges: number;
  tensorType: TensorType;
}

export const TINY_LLAMA_SIZES = {
  /** Loads in milliseconds; what tests and first start use. */
  tiny: { name: "wisp-tiny", embedding: 64, layers: 2, heads: 4, kvHeads: 2, feedForward: 192, contextLength: 8192, maxMerges: 2000, tensorType: TensorType.F32 },
  /** ~30M parameters, for benchmarks where compute should dominate overheads. */
  large: { name: "wisp-large", embedding: 512, layers: 9, heads: 8, kvHeads: 4, feedForward: 1536, contextLength: 8192, maxMerges: 2000, tensorType: TensorType.F16 },
} as const satisfies Record<string, TinyLlamaSpec>;

export type TinyLlamaSize = keyof typeof TINY_LLAMA_SIZES;

export const SPECIAL_TOKENS = [
  "<|endoftext|>",
  "<|im_start|>",
  "<|im_end|>",
  "<|fim_prefix|>",
  "<|fim_middle|>",
  "<|fim_suffix|>",
  "<|fim_pad|>",
  "<|repo_name|>",
  "<|file_sep|>",
] as const;

export const CHATML_TEMPLATE =
  "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}" +
  "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

const TOKEN_TYPE_NORMAL = 1;
const TOKEN_TYPE_CONTROL = 3;

/** mulberry32 seeded from the tensor name: weights independent of generation order. */
function seededRandom(seedText: string): () => number {
  let seed = 2166136261;
  for (let i = 0; i < seedText.length; i++) seed = Math.imul(seed ^ seedText.charCodeAt(i), 16777619);
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomTensor(name: string, dims: number[], std: number, type: TensorType): GgufTensor {
  const random = seededRandom(name);
  const data = new Float32Array(dims.reduce((a, b) => a * b, 1));
  const range = std * Math.sqrt(3); // uniform [-r, r] has this std
  for (let i = 0; i < data.length; i++) data[i] = (random() * 2 - 1) * range;
  return { name, dims, type, data };
}

function onesTensor(name: string, size: number): GgufTensor {
  return { name, dims: [size], type: TensorType.F32, data: new Float32Array(size).fill(1) };
}

function buildTensors(spec: TinyLlamaSpec, vocabSize: number): GgufTensor[] {
  const { embedding: d, feedForward: ff, tensorType: type } = spec;
  const kvDim = (d / spec.heads) * spec.kvHeads;
  const tensors: GgufTensor[] = [randomTensor("token_embd.weight", [d, vocabSize], 1, type)];
  for (let l = 0; l < spec.layers; l++) {
    const p = `blk.${l}.`;
    // std 1/sqrt(fan_in) keeps activations at unit scale through the random layers.
    tensors.push(
      onesTensor(`${p}attn_norm.weight`, d),
      randomTensor(`${p}attn_q.weight`, [d, d], 1 / Math.sqrt(d), type),
      randomTensor(`${p}attn_k.weight`, [d, kvDim], 1 / Math.sqrt(d), type),
      randomTensor(`${p}attn_v.weight`, [d, kvDim], 1 / Math.sqrt(d), type),
      randomTensor(`${p}attn_output.weight`, [d, d], 1 / Math.sqrt(d), type),
      onesTensor(`${p}ffn_norm.weight`, d),
      randomTensor(`${p}ffn_gate.weight`, [d, ff], 1 / Math.sqrt(d), type),
      randomTensor(`${p}ffn_up.weight`, [d, ff], 1 / Math.sqrt(d), type),
      randomTensor(`${p}ffn_down.weight`, [ff, d], 1 / Math.sqrt(ff), type),
    );
  }
  // Logits with a std of ~2: a peaked but varied distribution, so sampling settings matter.
  tensors.push(onesTensor("output_norm.weight", d), randomTensor("output.weight", [d, vocabSize], 2 / Math.sqrt(d), type));
  return tensors;
}

function buildMetadata(spec: TinyLlamaSpec, tokens: string[], tokenTypes: number[], merges: string[]): Map<string, GgufValue> {
  const id = (t: (typeof SPECIAL_TOKENS)[number]) => ({ type: "u32" as const, value: tokens.indexOf(t) });
  const u32 = (value: number) => ({ type: "u32" as const, value });
  const metadata = new Map<string, GgufValue>([
    ["general.architecture", { type: "string", value: "llama" }],
    ["general.name", { type: "string", value: spec.name }],
    ["general.file_type", u32(spec.tensorType === TensorType.F16 ? 1 : 0)],
    ["llama.context_length", u32(spec.contextLength)],
    ["llama.embedding_length", u32(spec.embedding)],
    ["llama.block_count", u32(spec.layers)],
    ["llama.feed_forward_length", u32(spec.feedForward)],
    ["llama.attention.head_count", u32(spec.heads)],
    ["llama.attention.head_count_kv", u32(spec.kvHeads)],
    ["llama.rope.dimension_count", u32(spec.embedding / spec.heads)],
    ["llama.rope.freq_base", { type: "f32", value: 10000 }],
    ["llama.attention.layer_norm_rms_epsilon", { type: "f32", value: 1e-5 }],
    ["llama.vocab_size", u32(tokens.length)],
    ["tokenizer.ggml.model", { type: "string", value: "gpt2" }],
    ["tokenizer.ggml.pre", { type: "string", value: "qwen2" }],
    ["tokenizer.ggml.tokens", { type: "string[]", value: tokens }],
    ["tokenizer.ggml.token_type", { type: "i32[]", value: tokenTypes }],
    ["tokenizer.ggml.merges", { type: "string[]", value: merges }],
    ["tokenizer.ggml.bos_token_id", id("<|endoftext|>")],
    ["tokenizer.ggml.eos_token_id", id("<|endoftext|>")],
    ["tokenizer.ggml.eot_token_id", id("<|im_end|>")],
    ["tokenizer.ggml.padding_token_id", id("<|fim_pad|>")],
    ["tokenizer.ggml.fim_pre_token_id", id("<|fim_prefix|>")],
    ["tokenizer.ggml.fim_suf_token_id", id("<|fim_suffix|>")],
    ["tokenizer.ggml.fim_mid_token_id", id("<|fim_middle|>")],
    ["tokenizer.ggml.fim_pad_token_id", id("<|fim_pad|>")],
    ["tokenizer.ggml.fim_rep_token_id", id("<|repo_name|>")],
    ["tokenizer.ggml.fim_sep_token_id", id("<|file_sep|>")],
    ["tokenizer.ggml.add_bos_token", { type: "bool", value: false }],
    ["tokenizer.chat_template", { type: "string", value: CHATML_TEMPLATE }],
  ]);
  for (const [key, value] of metadata) if (value.type === "u32" && value.value === -1) metadata.delete(key);
  return metadata;
}

/** GGUF metadata key: the model fills in the middle from a suffix-first prompt. */
export const FIM_SUFFIX_FIRST_KEY = "wisp.fim.suffix_first";

export interface TinyLlamaOptions {
  /** false: no FIM tokens at all (a model that cannot fill in the middle). Default true. */
  fim?: boolean;
  /**
   * Declares (GGUF key `wisp.fim.suffix_first`) that the model fills in the middle from the
   * suffix-first layout `<|fim_suffix|>{suffix}<|fim_prefix|>{prefix}<|fim_middle|>`, which the
   * server then uses. Default true: the project's models are trained on it (typing at the cursor
   * then only extends the prompt); false gives a prefix-suffix-middle model.
   */
  fimSuffixFirst?: boolean;
}

const isFimToken = (t: string) => t.startsWith("<|fim_") || t === "<|repo_name|>" || t === "<|file_sep|>";

/** The GGUF file for `size`, as chunks to write in order. */
export function buildTinyLlamaGguf(size: TinyLlamaSize, options: TinyLlamaOptions = {}): Uint8Array[] {
  const spec: TinyLlamaSpec = TINY_LLAMA_SIZES[size];
  const bpe = trainBpe(TRAINING_CORPUS, spec.maxMerges);
  const specials = options.fim === false ? SPECIAL_TOKENS.filter((t) => !isFimToken(t)) : SPECIAL_TOKENS;
  const tokens = [...bpe.tokens, ...specials];
  const tokenTypes = tokens.map((_, i) => (i < bpe.tokens.length ? TOKEN_TYPE_NORMAL : TOKEN_TYPE_CONTROL));
  const metadata = buildMetadata(spec, tokens, tokenTypes, bpe.merges);
  if (options.fimSuffixFirst !== false && options.fim !== false) metadata.set(FIM_SUFFIX_FIRST_KEY, { type: "bool", value: true });
  return encodeGguf(metadata, buildTensors(spec, tokens.length));
}
