// Builds the project's own llama-architecture GGUF: a byte-level BPE tokenizer trained on the
// built-in corpus, ChatML chat template, FIM/EOT tokens and seeded random weights. Deterministic:
// the same size always produces the same bytes.
import { trainBpe } from "./bpe-trainer";
import { TRAINING_CORPUS } from "./corpus";
import { TensorType } from "./gguf-writer";
import { encodeLlamaGguf, llamaVocabulary, SPECIAL_TOKENS, type LlamaMetadataOptions, type LlamaSpec, type LlamaVocabulary, type LlamaVocabularyOptions } from "./llama-gguf";

export { CHATML_TEMPLATE, FIM_SUFFIX_FIRST_KEY, SPECIAL_TOKENS } from "./llama-gguf";

export interface TinyLlamaSpec extends LlamaSpec {
  maxMerges: number;
}

export const TINY_LLAMA_SIZES = {
  /** Loads in milliseconds; what tests and first start use. */
  tiny: { name: "wisp-tiny", embedding: 64, layers: 2, heads: 4, kvHeads: 2, feedForward: 192, contextLength: 8192, maxMerges: 2000, tensorType: TensorType.F32 },
  /** ~30M parameters, for benchmarks where compute should dominate overheads. */
  large: { name: "wisp-large", embedding: 512, layers: 9, heads: 8, kvHeads: 4, feedForward: 1536, contextLength: 8192, maxMerges: 2000, tensorType: TensorType.F16 },
  /** ~34M and ~151M parameters in q8_0: the sizes the engine is compared with llama-server at. */
  "34m": { name: "wisp-34m", embedding: 512, layers: 10, heads: 8, kvHeads: 4, feedForward: 1536, contextLength: 8192, maxMerges: 2000, tensorType: TensorType.Q8_0 },
  "151m": { name: "wisp-151m", embedding: 1024, layers: 12, heads: 16, kvHeads: 8, feedForward: 2944, contextLength: 8192, maxMerges: 2000, tensorType: TensorType.Q8_0 },
} as const satisfies Record<string, TinyLlamaSpec>;

export type TinyLlamaSize = keyof typeof TINY_LLAMA_SIZES;

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

/** Uniform values with standard deviation `std` (std 1/sqrt(fan_in) keeps activations at unit scale). */
function randomValues(name: string, size: number, std: number): Float32Array {
  const random = seededRandom(name);
  const data = new Float32Array(size);
  const range = std * Math.sqrt(3); // uniform [-r, r] has this std
  for (let i = 0; i < data.length; i++) data[i] = (random() * 2 - 1) * range;
  return data;
}

/** Random weights by tensor: unit-scale activations, and logits with a std of ~2 (peaked but varied). */
export function randomWeights(name: string, dims: readonly number[], norm: boolean): Float32Array {
  const size = dims.reduce((a, b) => a * b, 1);
  if (norm) return new Float32Array(size).fill(1);
  if (name === "token_embd.weight") return randomValues(name, size, 1);
  if (name === "output.weight") return randomValues(name, size, 2 / Math.sqrt(dims[0]!));
  return randomValues(name, size, 1 / Math.sqrt(dims[0]!));
}

/**
 * `fim: false` leaves out the FIM tokens; `fimLayout` picks the FIM prompt layout it declares;
 * `endless`: a model that never ends a generation by itself (see endlessWeights).
 */
export type TinyLlamaOptions = LlamaVocabularyOptions & LlamaMetadataOptions & { endless?: boolean };

/**
 * randomWeights for a model that never ends a generation by itself, whatever the temperature:
 * channel 0 of the residual stream holds the same positive value at every position (a constant
 * embedding column that no layer writes to), and the special tokens' output rows (llama.cpp's
 * end-of-generation tokens are among them) read that channel alone, negatively: their logits sit
 * far below the others'. For tests that must stop or reload in the middle of an answer. `silenced`
 * names more tokens kept out so (by their stored spelling: a line break is `Ċ`), for benchmarks
 * that want every answer as long as max_tokens allows.
 */
export function endlessWeights(vocabulary: LlamaVocabulary, silenced: (token: string) => boolean = () => false): typeof randomWeights {
  const specials = new Set<string>(SPECIAL_TOKENS);
  const special = vocabulary.tokens.flatMap((token, id) => (specials.has(token) || silenced(token) ? [id] : []));
  return (name, dims, norm) => {
    const data = randomWeights(name, dims, norm);
    // ggml layout: output row r is data[r * n, (r + 1) * n) with n = dims[0].
    const n = dims[0]!;
    if (name === "token_embd.weight") for (let t = 0; t < dims[1]!; t++) data[t * n] = Math.sqrt(n);
    if (name.endsWith(".attn_output.weight") || name.endsWith(".ffn_down.weight")) data.fill(0, 0, n);
    if (name === "output.weight") {
      for (let t = 0; t < dims[1]!; t++) data[t * n] = 0; // the constant biases no other token
      for (const id of special) {
        data.fill(0, id * n, (id + 1) * n);
        data[id * n] = -64;
      }
    }
    return data;
  };
}

/** The GGUF file for `size`, as chunks to write in order. */
export function buildTinyLlamaGguf(size: TinyLlamaSize, options: TinyLlamaOptions = {}): Uint8Array[] {
  const spec: TinyLlamaSpec = TINY_LLAMA_SIZES[size];
  const vocabulary = llamaVocabulary(trainBpe(TRAINING_CORPUS, spec.maxMerges), options);
  return encodeLlamaGguf(spec, vocabulary, options.endless ? endlessWeights(vocabulary) : randomWeights, options);
}
