// What the engine reads from each token's text, made once per model: the texts themselves, the
// tokens that end a line (line copying), and the bias that heals a prompt's last token.
import type { LlamaModel, Token } from "node-llama-cpp";

export class TokenTexts {
  private readonly texts = new WeakMap<LlamaModel, string[]>();
  private readonly lineEndTokens = new WeakMap<LlamaModel, Int32Array>();

  /** Each token's text (a piece of a character reads as U+FFFD). */
  of(model: LlamaModel): string[] {
    let texts = this.texts.get(model);
    if (!texts) {
      const count = model.fileInfo.metadata.tokenizer?.ggml?.tokens?.length ?? 0;
      texts = Array.from({ length: count }, (_, t) => model.detokenize([t as Token]));
      this.texts.set(model, texts);
    }
    return texts;
  }

  /** Tokens whose text starts with a line break, and the end-of-generation ones (see runLineChoice). */
  lineEnds(model: LlamaModel): Int32Array {
    let ends = this.lineEndTokens.get(model);
    if (!ends) {
      const texts = this.of(model);
      ends = Int32Array.from(texts.flatMap((text, t) => (model.isEogToken(t as Token) || /^\r?\n/.test(text) ? [t] : [])));
      this.lineEndTokens.set(model, ends);
    }
    return ends;
  }

  /** `logitBias`, with every token whose text does not start with `text` ruled out (token healing). */
  healingBias(model: LlamaModel, logitBias: ReadonlyMap<Token, number>, text: string): Map<Token, number> {
    const bias = new Map(logitBias);
    this.of(model).forEach((t, token) => {
      if (!t.startsWith(text)) bias.set(token as Token, -Infinity);
    });
    return bias;
  }
}
