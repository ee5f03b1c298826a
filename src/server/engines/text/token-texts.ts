// What the engine reads from each token's text, made once per model: the texts themselves, the
// tokens that end a line (line copying), and the bias that heals a prompt's last token.
import type { LlamaModel, Token } from "node-llama-cpp";

/**
 * Added to the logits of the tokens healing lets through: above any logit a model gives and any
 * bias a client may set (OpenAI's range is -100 to 100), so no other token can come first, while
 * the allowed tokens keep their own order and probabilities.
 */
export const HEALING_BOOST = 1000;

export class TokenTexts {
  private readonly texts = new WeakMap<LlamaModel, string[]>();
  private readonly lineEndTokens = new WeakMap<LlamaModel, Int32Array>();
  private readonly byText = new WeakMap<LlamaModel, Int32Array>();

  /** Each token's text (a piece of a character reads as U+FFFD). */
  of(model: LlamaModel): string[] {
    return once(this.texts, model, () => {
      const count = model.fileInfo.metadata.tokenizer?.ggml?.tokens?.length ?? 0;
      return Array.from({ length: count }, (_, t) => model.detokenize([t as Token]));
    });
  }

  /** Tokens whose text starts with a line break, and the end-of-generation ones (see runLineChoice). */
  lineEnds(model: LlamaModel): Int32Array {
    return once(this.lineEndTokens, model, () =>
      Int32Array.from(this.of(model).flatMap((text, t) => (model.isEogToken(t as Token) || /^\r?\n/.test(text) ? [t] : []))),
    );
  }

  /**
   * `logitBias`, with only tokens whose text starts with `text` let through (token healing). A
   * real vocabulary has 150k tokens and a healed text a few dozen that fit: those are raised by
   * HEALING_BOOST, rather than every other token ruled out (a 150k-entry bias took 120-160 ms a
   * request to build on a 0.5B model's vocabulary, in the time to its first token).
   */
  healingBias(model: LlamaModel, logitBias: ReadonlyMap<Token, number>, text: string): Map<Token, number> {
    const texts = this.of(model);
    const order = once(this.byText, model, () => Int32Array.from(texts.keys()).sort((a, b) => (texts[a]! < texts[b]! ? -1 : texts[a]! > texts[b]! ? 1 : a - b)));
    const bias = new Map(logitBias);
    for (const token of tokensStartingWith(texts, order, text)) bias.set(token as Token, (logitBias.get(token as Token) ?? 0) + HEALING_BOOST);
    return bias;
  }
}

/** `cache`'s value for `model`, made by `make` the first time. */
function once<T>(cache: WeakMap<LlamaModel, T>, model: LlamaModel, make: () => T): T {
  let value = cache.get(model);
  if (value === undefined) {
    value = make();
    cache.set(model, value);
  }
  return value;
}

/** The tokens whose text starts with `text`, found in `order` (the token ids sorted by their texts). */
export function tokensStartingWith(texts: readonly string[], order: Int32Array, text: string): number[] {
  // The texts starting with `text` are a run in sorted order, from the first one not below it.
  let low = 0;
  let high = order.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (texts[order[middle]!]! < text) low = middle + 1;
    else high = middle;
  }
  const found: number[] = [];
  for (let i = low; i < order.length && texts[order[i]!]!.startsWith(text); i++) found.push(order[i]!);
  return found;
}
