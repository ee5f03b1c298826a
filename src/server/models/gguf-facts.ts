// What /v1/models says about a GGUF text model, from its header: the context window it is served
// with (its trained length, capped by --ctx-size) and whether it carries fill-in-the-middle tokens.
import { stat } from "node:fs/promises";
import { readGgufFileInfo } from "node-llama-cpp";

export interface GgufFacts {
  readonly contextLength: number;
  /** The server can apply the model's own FIM tokens to a `suffix`. */
  readonly fim: boolean;
}

interface HeaderFacts {
  readonly trained?: number;
  readonly fim: boolean;
}

// The texts llama.cpp itself recognises as a FIM prefix token when the metadata names none.
const fimPrefixTexts = new Set(["<|fim_prefix|>", "<fim-prefix>", "<fim_prefix>", "<｜fim▁begin｜>", "<|fim▁begin|>", "<PRE>", "▁<PRE>"]);

/** Reads each file's header once per modification time (the metadata and token texts, no weights). */
export class GgufFactsReader {
  private readonly cache = new Map<string, { mtimeMs: number; facts: Promise<HeaderFacts> }>();

  constructor(private readonly cap: number) {}

  /** The context length is min(trained length, cap), the cap alone when the file does not say. */
  async read(path: string): Promise<GgufFacts> {
    const { mtimeMs } = await stat(path);
    let entry = this.cache.get(path);
    if (entry?.mtimeMs !== mtimeMs) {
      entry = { mtimeMs, facts: readHeader(path) };
      this.cache.set(path, entry);
    }
    const { trained, fim } = await entry.facts;
    return { contextLength: trained === undefined ? this.cap : Math.min(trained, this.cap), fim };
  }
}

async function readHeader(path: string): Promise<HeaderFacts> {
  try {
    const info = await readGgufFileInfo(path, {
      readTensorInfo: false,
      sourceType: "filesystem",
      logWarnings: false,
      ignoreKeys: ["tokenizer.ggml.merges", "tokenizer.ggml.token_type", "tokenizer.ggml.scores"],
    });
    const length = (info.architectureMetadata as { context_length?: unknown }).context_length;
    const tokenizer = (info.metadata as { tokenizer?: { ggml?: Record<string, unknown> } }).tokenizer?.ggml ?? {};
    const tokens = Array.isArray(tokenizer.tokens) ? (tokenizer.tokens as unknown[]) : [];
    const fim = typeof tokenizer.fim_pre_token_id === "number" || typeof tokenizer.prefix_token_id === "number" || tokens.some((t) => typeof t === "string" && fimPrefixTexts.has(t));
    return { ...(typeof length === "number" && length > 0 ? { trained: length } : {}), fim };
  } catch {
    return { fim: false };
  }
}
