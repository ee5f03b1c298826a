// The llama-architecture GGUF layout the project writes, for its generated (random-weight) models
// and its trained one alike: the byte-level BPE vocabulary with ChatML and FIM special tokens, the
// metadata llama.cpp reads, and the tensor names and shapes.
import type { BpeVocabulary } from "./bpe-trainer";
import { encodeGguf, TensorType, type GgufTensor, type GgufValue } from "./gguf-writer";

export interface LlamaSpec {
  name: string;
  embedding: number;
  layers: number;
  heads: number;
  kvHeads: number;
  feedForward: number;
  contextLength: number;
  /** The type of the large matrices; norms stay f32. */
  tensorType: TensorType;
  /**
   * The type of token_embd and output (default: tensorType). A few bits less there costs a small
   * model more than in its blocks, so llama.cpp's quantize keeps them wider too.
   */
  edgeTensorType?: TensorType;
  ropeBase?: number;
  /** GGUF architecture: `llama` (default), or `qwen2` (the same blocks with biases on q, k and v). */
  architecture?: "llama" | "qwen2";
  rmsEpsilon?: number;
  /** No output.weight: the output projection is the token embedding's (llama.cpp reuses it). */
  tiedEmbeddings?: boolean;
}

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

/**
 * ChatML, with tools laid out as the common open tool-calling templates do: the tools' JSON in the
 * system turn, each call as `<tool_call>\\n{"name": ..., "arguments": ...}\\n</tool_call>` in the
 * assistant turn, results as `<tool_response>` blocks in a user turn. Without tools it renders
 * plain ChatML.
 */
export const CHATML_TEMPLATE =
  "{%- if tools %}{{- '<|im_start|>system\\n' }}{%- if messages[0]['role'] == 'system' %}{{- messages[0]['content'] + '\\n\\n' }}{%- endif %}" +
  "{{- '# Tools\\n\\nYou may call one or more functions to assist with the user query.\\n\\nYou are provided with function signatures within <tools></tools> XML tags:\\n<tools>' }}" +
  "{%- for tool in tools %}{{- '\\n' }}{{- tool | tojson }}{%- endfor %}" +
  "{{- '\\n</tools>\\n\\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\\n<tool_call>\\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\\n</tool_call><|im_end|>\\n' }}{%- endif %}" +
  "{%- for message in messages %}" +
  "{%- if tools and message['role'] == 'system' and loop.first %}" +
  "{%- elif message['role'] == 'assistant' and message['tool_calls'] %}{{- '<|im_start|>assistant' }}{%- if message['content'] %}{{- '\\n' + message['content'] }}{%- endif %}" +
  "{%- for tool_call in message['tool_calls'] %}{%- if tool_call['function'] is defined %}{%- set tool_call = tool_call['function'] %}{%- endif %}" +
  "{{- '\\n<tool_call>\\n{\"name\": \"' + tool_call['name'] + '\", \"arguments\": ' }}{{- tool_call['arguments'] | tojson }}{{- '}\\n</tool_call>' }}{%- endfor %}{{- '<|im_end|>\\n' }}" +
  "{%- elif message['role'] == 'tool' %}{%- if loop.first or messages[loop.index0 - 1]['role'] != 'tool' %}{{- '<|im_start|>user' }}{%- endif %}" +
  "{{- '\\n<tool_response>\\n' + message['content'] + '\\n</tool_response>' }}{%- if loop.last or messages[loop.index0 + 1]['role'] != 'tool' %}{{- '<|im_end|>\\n' }}{%- endif %}" +
  "{%- else %}{{- '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>\\n' }}{%- endif %}{%- endfor %}" +
  "{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}{%- endif %}";

/** GGUF metadata key: the model fills in the middle from a suffix-first prompt. */
export const FIM_SUFFIX_FIRST_KEY = "wisp.fim.suffix_first";
/** GGUF metadata key: the model's fill-in-the-middle layout by name, for layouts beyond those two. */
export const FIM_LAYOUT_KEY = "wisp.fim.layout";

/**
 * How a model reads a fill-in-the-middle prompt:
 * - `prefix-suffix-middle`: `<|fim_prefix|>{prefix}<|fim_suffix|>{suffix}<|fim_middle|>`, the one
 *   every FIM model knows;
 * - `suffix-first`: `<|fim_suffix|>{suffix}<|fim_prefix|>{prefix}<|fim_middle|>` (GGUF
 *   `wisp.fim.suffix_first`);
 * - `suffix-middle-prefix`: `<|fim_prefix|><|fim_suffix|>{suffix}<|fim_middle|>{prefix}`, the middle
 *   continuing the prefix with nothing between them (GGUF `wisp.fim.layout`), so a small model
 *   fills in with the same skill it continues text with.
 * In both suffix-first layouts typing at the cursor only extends the prompt.
 */
export type FimLayout = "prefix-suffix-middle" | "suffix-first" | "suffix-middle-prefix";

const TOKEN_TYPE_NORMAL = 1;
const TOKEN_TYPE_CONTROL = 3;

export interface LlamaVocabulary {
  tokens: string[];
  tokenTypes: number[];
  merges: string[];
}

export interface LlamaVocabularyOptions {
  /** false: no FIM tokens at all (a model that cannot fill in the middle). Default true. */
  fim?: boolean;
}

const isFimToken = (t: string) => t.startsWith("<|fim_") || t === "<|repo_name|>" || t === "<|file_sep|>";

/** The BPE tokens, then the special tokens (control type). */
export function llamaVocabulary(bpe: BpeVocabulary, options: LlamaVocabularyOptions = {}): LlamaVocabulary {
  const specials = options.fim === false ? SPECIAL_TOKENS.filter((t) => !isFimToken(t)) : SPECIAL_TOKENS;
  const tokens = [...bpe.tokens, ...specials];
  const tokenTypes = tokens.map((_, i) => (i < bpe.tokens.length ? TOKEN_TYPE_NORMAL : TOKEN_TYPE_CONTROL));
  return { tokens, tokenTypes, merges: bpe.merges };
}

export interface LlamaMetadataOptions {
  /**
   * The fill-in-the-middle layout the model declares, which the server then uses (see FimLayout).
   * Default `suffix-first` when the vocabulary has FIM tokens.
   */
  fimLayout?: FimLayout;
  /** More keys, e.g. `general.description`. */
  extra?: ReadonlyMap<string, GgufValue>;
}

const FILE_TYPE: Record<TensorType, number> = { [TensorType.F32]: 0, [TensorType.F16]: 1, [TensorType.Q4_0]: 2, [TensorType.Q8_0]: 7, [TensorType.Q5_0]: 8 };

export function llamaMetadata(spec: LlamaSpec, vocabulary: LlamaVocabulary, options: LlamaMetadataOptions = {}): Map<string, GgufValue> {
  const { tokens } = vocabulary;
  const u32 = (value: number) => ({ type: "u32" as const, value });
  const arch = spec.architecture ?? "llama";
  const metadata = new Map<string, GgufValue>([
    ["general.architecture", { type: "string", value: arch }],
    ["general.name", { type: "string", value: spec.name }],
    ["general.file_type", u32(FILE_TYPE[spec.tensorType])],
    [`${arch}.context_length`, u32(spec.contextLength)],
    [`${arch}.embedding_length`, u32(spec.embedding)],
    [`${arch}.block_count`, u32(spec.layers)],
    [`${arch}.feed_forward_length`, u32(spec.feedForward)],
    [`${arch}.attention.head_count`, u32(spec.heads)],
    [`${arch}.attention.head_count_kv`, u32(spec.kvHeads)],
    [`${arch}.rope.dimension_count`, u32(spec.embedding / spec.heads)],
    [`${arch}.rope.freq_base`, { type: "f32", value: spec.ropeBase ?? 10000 }],
    [`${arch}.attention.layer_norm_rms_epsilon`, { type: "f32", value: spec.rmsEpsilon ?? 1e-5 }],
    [`${arch}.vocab_size`, u32(tokens.length)],
    ["tokenizer.ggml.model", { type: "string", value: "gpt2" }],
    ["tokenizer.ggml.pre", { type: "string", value: "qwen2" }],
    ["tokenizer.ggml.tokens", { type: "string[]", value: tokens }],
    ["tokenizer.ggml.token_type", { type: "i32[]", value: vocabulary.tokenTypes }],
    ["tokenizer.ggml.merges", { type: "string[]", value: vocabulary.merges }],
  ]);
  const ids: [string, (typeof SPECIAL_TOKENS)[number]][] = [
    ["tokenizer.ggml.bos_token_id", "<|endoftext|>"],
    ["tokenizer.ggml.eos_token_id", "<|endoftext|>"],
    ["tokenizer.ggml.eot_token_id", "<|im_end|>"],
    ["tokenizer.ggml.padding_token_id", "<|fim_pad|>"],
    ["tokenizer.ggml.fim_pre_token_id", "<|fim_prefix|>"],
    ["tokenizer.ggml.fim_suf_token_id", "<|fim_suffix|>"],
    ["tokenizer.ggml.fim_mid_token_id", "<|fim_middle|>"],
    ["tokenizer.ggml.fim_pad_token_id", "<|fim_pad|>"],
    ["tokenizer.ggml.fim_rep_token_id", "<|repo_name|>"],
    ["tokenizer.ggml.fim_sep_token_id", "<|file_sep|>"],
  ];
  for (const [key, token] of ids) {
    const id = tokens.indexOf(token);
    if (id >= 0) metadata.set(key, u32(id));
  }
  metadata.set("tokenizer.ggml.add_bos_token", { type: "bool", value: false });
  metadata.set("tokenizer.chat_template", { type: "string", value: CHATML_TEMPLATE });
  const fim = tokens.includes("<|fim_middle|>");
  const layout = options.fimLayout ?? "suffix-first";
  if (fim && layout === "suffix-first") metadata.set(FIM_SUFFIX_FIRST_KEY, { type: "bool", value: true });
  if (fim && layout === "suffix-middle-prefix") metadata.set(FIM_LAYOUT_KEY, { type: "string", value: layout });
  for (const [key, value] of options.extra ?? []) metadata.set(key, value);
  return metadata;
}

/** Tensor names and ggml shapes (dims[0] = a row's length, i.e. the input features). */
export function llamaTensorShapes(spec: LlamaSpec, vocabSize: number): { name: string; dims: number[]; norm: boolean }[] {
  const { embedding: d, feedForward: ff } = spec;
  const kvDim = (d / spec.heads) * spec.kvHeads;
  const shapes = [{ name: "token_embd.weight", dims: [d, vocabSize], norm: false }];
  for (let l = 0; l < spec.layers; l++) {
    const p = `blk.${l}.`;
    // Biases stay f32 like norms (llama.cpp's converters keep 1-D tensors unquantized).
    const biases = spec.architecture === "qwen2" ? (["q", "k", "v"] as const).map((x) => ({ name: `${p}attn_${x}.bias`, dims: [x === "q" ? d : kvDim], norm: true })) : [];
    shapes.push(
      { name: `${p}attn_norm.weight`, dims: [d], norm: true },
      { name: `${p}attn_q.weight`, dims: [d, d], norm: false },
      { name: `${p}attn_k.weight`, dims: [d, kvDim], norm: false },
      { name: `${p}attn_v.weight`, dims: [d, kvDim], norm: false },
      ...biases,
      { name: `${p}attn_output.weight`, dims: [d, d], norm: false },
      { name: `${p}ffn_norm.weight`, dims: [d], norm: true },
      { name: `${p}ffn_gate.weight`, dims: [d, ff], norm: false },
      { name: `${p}ffn_up.weight`, dims: [d, ff], norm: false },
      { name: `${p}ffn_down.weight`, dims: [ff, d], norm: false },
    );
  }
  shapes.push({ name: "output_norm.weight", dims: [d], norm: true });
  if (!spec.tiedEmbeddings) shapes.push({ name: "output.weight", dims: [d, vocabSize], norm: false });
  return shapes;
}

const edgeTensors: ReadonlySet<string> = new Set(["token_embd.weight", "output.weight"]);

/** The whole file as chunks to write in order; `values(name)` gives each tensor's data. */
export function encodeLlamaGguf(
  spec: LlamaSpec,
  vocabulary: LlamaVocabulary,
  values: (name: string, dims: readonly number[], norm: boolean) => Float32Array,
  options: LlamaMetadataOptions = {},
): Uint8Array[] {
  const tensors: GgufTensor[] = llamaTensorShapes(spec, vocabulary.tokens.length).map(({ name, dims, norm }) => ({
    name,
    dims,
    type: norm ? TensorType.F32 : edgeTensors.has(name) ? (spec.edgeTensorType ?? spec.tensorType) : spec.tensorType,
    data: values(name, dims, norm),
  }));
  return encodeGguf(llamaMetadata(spec, vocabulary, options), tensors);
}
