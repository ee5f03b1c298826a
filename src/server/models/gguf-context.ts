// The context window a GGUF text model is served with: its trained length, capped by --ctx-size.
import { stat } from "node:fs/promises";
import { readGgufFileInfo } from "node-llama-cpp";

/** Reads each file's header once per modification time (only the metadata, not the vocabulary). */
export class GgufContextLengths {
  private readonly cache = new Map<string, { mtimeMs: number; length: Promise<number | undefined> }>();

  constructor(private readonly cap: number) {}

  /** min(trained context length, cap); the cap alone when the file does not say. */
  async served(path: string): Promise<number> {
    const { mtimeMs } = await stat(path);
    let entry = this.cache.get(path);
    if (entry?.mtimeMs !== mtimeMs) {
      entry = { mtimeMs, length: trainedLength(path) };
      this.cache.set(path, entry);
    }
    const trained = await entry.length;
    return trained === undefined ? this.cap : Math.min(trained, this.cap);
  }
}

async function trainedLength(path: string): Promise<number | undefined> {
  try {
    const info = await readGgufFileInfo(path, {
      readTensorInfo: false,
      sourceType: "filesystem",
      logWarnings: false,
      ignoreKeys: ["tokenizer.ggml.tokens", "tokenizer.ggml.merges", "tokenizer.ggml.token_type", "tokenizer.ggml.scores"],
    });
    const length = (info.architectureMetadata as { context_length?: unknown }).context_length;
    return typeof length === "number" && length > 0 ? length : undefined;
  } catch {
    return undefined;
  }
}
