// The byte-level BPE a GGUF written by the project holds (tokens and merges, without the special
// tokens llamaVocabulary() appends): what build-dataset.ts --tokenizer takes, and what a generated
// model of another shape needs to tokenize exactly as the shipped one does.
import { readGgufFileInfo } from "node-llama-cpp";
import type { BpeVocabulary } from "../../src/server/models/bpe-trainer";

type GgufInfo = Awaited<ReturnType<typeof readGgufFileInfo>>;

const NORMAL = 1;

/** The BPE tokens (llamaVocabulary() puts the special ones, of control type, after them) and merges. */
export function ggufBpe(info: GgufInfo): BpeVocabulary {
  const ggml = (info.metadata as unknown as { tokenizer: { ggml: { tokens: string[]; token_type: number[]; merges: string[] } } }).tokenizer.ggml;
  const bpeCount = ggml.token_type.findIndex((t) => t !== NORMAL);
  return { tokens: ggml.tokens.slice(0, bpeCount < 0 ? undefined : bpeCount), merges: ggml.merges };
}

/** ggufBpe of the file at `path`. */
export async function readGgufBpe(path: string): Promise<BpeVocabulary> {
  return ggufBpe(await readGgufFileInfo(path, { sourceType: "filesystem", logWarnings: false }));
}
