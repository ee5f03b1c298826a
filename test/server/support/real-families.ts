// Test models with real tokenizers: the vocabulary, merges, special tokens and pre-tokenizer of a
// real model family (from llama.cpp's vocab-only GGUFs), the FIM tokens, end tokens and chat
// template its published GGUFs carry, and tiny random weights, written with the project's own GGUF
// writer. Built in seconds at test start, never committed.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { readGgufFileInfo } from "node-llama-cpp";
import { encodeGguf, TensorType, type GgufValue } from "../../../src/server/models/gguf-writer";
import { llamaMetadata, llamaTensorShapes, type LlamaSpec } from "../../../src/server/models/llama-gguf";
import { randomWeights } from "../../../src/server/models/tiny-llama";
import { llamaCppSourceFile, testedChatTemplate } from "./llama-cpp-source";

export interface RealFamily {
  /** The model id the test server lists (the GGUF's file name). */
  readonly id: string;
  /** llama.cpp's models/ggml-vocab-{vocab}.gguf. */
  readonly vocab: string;
  /** Tokens the published models have where the vocabulary file has placeholders (same ids), as control tokens. */
  readonly addedTokens?: Readonly<Record<number, string>>;
  /** Metadata the published GGUFs carry beyond the vocabulary file (e.g. the instruct model's eos). */
  readonly metadata?: Readonly<Record<string, GgufValue>>;
  /** Where the chat template comes from; absent: the vocabulary file's own, or none. */
  readonly chatTemplate?: () => Promise<string>;
  /**
   * Fill in the middle (absent: none): the family's tokens in prompt order (prefix, suffix, middle),
   * their ids in the published vocabulary, and the token that ends an answer.
   */
  readonly fim?: { readonly tokens: readonly [string, string, string]; readonly ids: readonly [number, number, number]; readonly end: string };
  /** Chat: the token that ends a turn, and the template's rendering of "You are terse." and "Hi" with the generation prompt. */
  readonly chat?: { readonly endOfTurn: string; readonly rendered?: string };
}

const qwen25Added: Record<number, string> = Object.fromEntries(
  ["<|object_ref_start|>", "<|object_ref_end|>", "<|box_start|>", "<|box_end|>", "<|quad_start|>", "<|quad_end|>", "<|vision_start|>", "<|vision_end|>", "<|vision_pad|>", "<|image_pad|>", "<|video_pad|>", "<tool_call>", "</tool_call>", "<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>", "<|fim_pad|>", "<|repo_name|>", "<|file_sep|>"].map((t, i) => [151646 + i, t]),
);

const template = (file: string) => async () => (await llamaCppSourceFile(`models/templates/${file}`)).toString("utf8");
const u32 = (value: number): GgufValue => ({ type: "u32", value });

export const realFamilies: readonly RealFamily[] = [
  {
    id: "qwen2.5-coder-real-vocab",
    vocab: "qwen2",
    addedTokens: qwen25Added,
    metadata: { "tokenizer.ggml.add_bos_token": { type: "bool", value: false } },
    chatTemplate: template("Qwen-Qwen2.5-7B-Instruct.jinja"),
    fim: { tokens: ["<|fim_prefix|>", "<|fim_suffix|>", "<|fim_middle|>"], ids: [151659, 151661, 151660], end: "<|endoftext|>" },
    chat: { endOfTurn: "<|im_end|>", rendered: "<|im_start|>system\nYou are terse.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n" },
  },
  {
    id: "deepseek-coder-instruct-real-vocab",
    vocab: "deepseek-coder",
    // The instruct model ends its turns with <|EOT|>, which its GGUFs carry as eos.
    metadata: { "tokenizer.ggml.eos_token_id": u32(32021) },
    chatTemplate: () => testedChatTemplate("deepseek-ai/deepseek-coder-33b-instruct"),
    fim: { tokens: ["<｜fim▁begin｜>", "<｜fim▁hole｜>", "<｜fim▁end｜>"], ids: [32016, 32015, 32017], end: "<|EOT|>" },
    chat: { endOfTurn: "<|EOT|>", rendered: "<｜begin▁of▁sentence｜>You are terse.### Instruction:\nHi\n### Response:\n" },
  },
  {
    id: "starcoder2-real-vocab",
    vocab: "starcoder",
    fim: { tokens: ["<fim_prefix>", "<fim_suffix>", "<fim_middle>"], ids: [1, 3, 2], end: "<|endoftext|>" },
  },
  {
    id: "llama-3.2-instruct-real-vocab",
    vocab: "llama-bpe",
    metadata: { "tokenizer.ggml.eos_token_id": u32(128009) },
    chatTemplate: template("meta-llama-Llama-3.2-3B-Instruct.jinja"),
    chat: { endOfTurn: "<|eot_id|>", rendered: "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nCutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\nYou are terse.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nHi<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n" },
  },
  {
    // SentencePiece with a space prefix (Llama 2, CodeLlama, Mistral): a piece detokenized alone loses its leading space.
    id: "llama-2-real-vocab",
    vocab: "llama-spm",
  },
  {
    id: "gemma-4-it-real-vocab",
    vocab: "gemma-4",
    chat: { endOfTurn: "<turn|>", rendered: "<bos><|turn>system\nYou are terse.<turn|>\n<|turn>user\nHi<turn|>\n<|turn>model\n" },
  },
];

const tinySpec: LlamaSpec = { name: "real-vocab", embedding: 64, layers: 1, heads: 4, kvHeads: 2, feedForward: 128, contextLength: 4096, tensorType: TensorType.Q8_0 };

/**
 * The GGUF metadata of a model shaped as `spec` that speaks `family`'s real tokenizer (from
 * llama.cpp's `vocabFile`), with its added tokens, chat template and metadata; and the vocabulary's size.
 */
export async function familyMetadata(family: RealFamily, vocabFile: string, spec: LlamaSpec): Promise<{ metadata: Map<string, GgufValue>; vocabSize: number }> {
  const info = await readGgufFileInfo(vocabFile, { readTensorInfo: false, sourceType: "filesystem", logWarnings: false });
  const tokenizer = (info.metadata as unknown as { tokenizer: { ggml: Record<string, unknown>; chat_template?: string } }).tokenizer;
  const tokens = [...(tokenizer.ggml.tokens as string[])];
  const types = [...(tokenizer.ggml.token_type as number[])];
  for (const [id, text] of Object.entries(family.addedTokens ?? {})) {
    tokens[Number(id)] = text;
    types[Number(id)] = 3;
  }
  const metadata = llamaMetadata({ ...spec, name: family.id }, { tokens, tokenTypes: types, merges: [] }, { fimLayout: "prefix-suffix-middle" });
  for (const key of [...metadata.keys()]) if (key.startsWith("tokenizer.") || key.startsWith("wisp.")) metadata.delete(key);
  for (const [key, value] of Object.entries(tokenizer.ggml)) {
    if (key === "tokens") metadata.set("tokenizer.ggml.tokens", { type: "string[]", value: tokens });
    else if (key === "token_type") metadata.set("tokenizer.ggml.token_type", { type: "i32[]", value: types });
    else if (key === "merges") metadata.set("tokenizer.ggml.merges", { type: "string[]", value: value as string[] });
    else if (key === "scores") metadata.set("tokenizer.ggml.scores", { type: "f32[]", value: value as number[] });
    else if (typeof value === "string") metadata.set(`tokenizer.ggml.${key}`, { type: "string", value });
    else if (typeof value === "boolean") metadata.set(`tokenizer.ggml.${key}`, { type: "bool", value });
    else if (typeof value === "number") metadata.set(`tokenizer.ggml.${key}`, u32(value));
  }
  const chatTemplate = family.chatTemplate ? await family.chatTemplate() : tokenizer.chat_template;
  if (chatTemplate) metadata.set("tokenizer.chat_template", { type: "string", value: chatTemplate });
  for (const [key, value] of Object.entries(family.metadata ?? {})) metadata.set(key, value);
  return { metadata, vocabSize: tokens.length };
}

/** Writes `{family.id}.gguf` into `dir`. */
export async function writeFamilyModel(family: RealFamily, dir: string, vocabFile: string): Promise<string> {
  const { metadata, vocabSize } = await familyMetadata(family, vocabFile, tinySpec);
  const tensors = llamaTensorShapes(tinySpec, vocabSize).map(({ name, dims, norm }) => ({ name, dims, type: norm ? TensorType.F32 : tinySpec.tensorType, data: randomWeights(name, dims, norm) }));
  const file = path.join(dir, `${family.id}.gguf`);
  // One write: the encoder yields a chunk per string, hundreds of thousands for a real vocabulary.
  await writeFile(file, Buffer.concat(encodeGguf(metadata, tensors)));
  return file;
}

/**
 * Writes every family's model into `dir`; the vocabularies, from llama.cpp's source bundle, go to
 * `vocabDir` (not the models folder, where they would be listed as models).
 */
export async function writeFamilyModels(dir: string, vocabDir: string, families: readonly RealFamily[] = realFamilies): Promise<void> {
  await mkdir(dir, { recursive: true });
  await mkdir(vocabDir, { recursive: true });
  for (const family of families) {
    const vocabFile = path.join(vocabDir, `ggml-vocab-${family.vocab}.gguf`);
    await writeFile(vocabFile, await llamaCppSourceFile(`models/ggml-vocab-${family.vocab}.gguf`));
    await writeFamilyModel(family, dir, vocabFile);
  }
}
