import { getLlama, type LlamaModel, type Token } from "node-llama-cpp";

/** A logit_bias that bars every end-of-generation token of `model`: a generation runs to max_tokens. */
export function endlessLogitBias(model: LlamaModel): Record<string, number> {
  const ids = model.fileInfo.metadata.tokenizer.ggml.tokens.map((_, id) => id).filter((id) => model.isEogToken(id as Token));
  return Object.fromEntries(ids.map((id) => [String(id), -100]));
}

/** endlessLogitBias of the GGUF at `modelPath`, read from its vocabulary alone (for a server in another process). */
export async function endlessLogitBiasOf(modelPath: string): Promise<Record<string, number>> {
  const llama = await getLlama({ gpu: false, build: "never", logLevel: "error" as never });
  const model = await llama.loadModel({ modelPath, vocabOnly: true });
  try {
    return endlessLogitBias(model);
  } finally {
    await model.dispose();
  }
}
