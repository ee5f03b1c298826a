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
  private readonly searches = new WeakMap<LlamaModel, PrefixSearch>();

  /** Each token's text (a piece of a character reads as U+FFFD). */
  of(model: LlamaModel): string[] {
    return once(this.texts, model, () => {
      const count = model.fileInfo.metadata.tokenizer?.ggml?.tokens?.length ?? 0;
      return Array.from({ length: count }, (_, t) => model.detokenize([t as Token]));
    });
  }

  /** Tokens whose text starts with a line break, and the end-of-generation ones (see runLineChoice). */
  lineEnds(model: LlamaModel): Int32Array {
    return once(this.lineEndTokens, model, () => {
      const search = this.search(model);
      const ends = new Set([...search.startingWith("\n"), ...search.startingWith("\r\n")]);
      const count = model.fileInfo.metadata.tokenizer?.ggml?.tokens?.length ?? 0;
      for (let t = 0; t < count; t++) if (model.isEogToken(t as Token)) ends.add(t);
      return Int32Array.from(ends).sort();
    });
  }

  /**
   * `logitBias`, with only tokens whose text starts with `text` let through (token healing). A
   * real vocabulary has 150k tokens and a healed text a few dozen that fit: those are raised by
   * HEALING_BOOST, rather than every other token ruled out (a 150k-entry bias took 120-160 ms a
   * request to build on a 0.5B model's vocabulary, in the time to its first token).
   */
  healingBias(model: LlamaModel, logitBias: ReadonlyMap<Token, number>, text: string): Map<Token, number> {
    const bias = new Map(logitBias);
    for (const token of this.search(model).startingWith(text)) bias.set(token as Token, (logitBias.get(token as Token) ?? 0) + HEALING_BOOST);
    return bias;
  }

  /**
   * Finds tokens by the start of their text. A byte-level vocabulary (GGUF tokenizer "gpt2": Qwen,
   * Llama 3, DeepSeek-Coder, StarCoder, Wisp's own) is searched in the spellings the GGUF already
   * holds in memory; building every token's text and sorting them took 230 ms and 12-20 MiB on
   * Qwen's 151k tokens, the first time a prompt was healed. Other vocabularies are searched in
   * their texts, sorted.
   */
  private search(model: LlamaModel): PrefixSearch {
    return once(this.searches, model, () => {
      const ggml = model.fileInfo.metadata.tokenizer?.ggml as { model?: string; tokens?: readonly string[]; token_type?: readonly number[] } | undefined;
      if (ggml?.model === "gpt2" && ggml.tokens && ggml.token_type?.length === ggml.tokens.length) return byteLevelSearch(model, ggml.tokens, ggml.token_type);
      const texts = this.of(model);
      const order = sortedByText(texts, Int32Array.from(texts.keys()));
      return { startingWith: (text) => tokensStartingWith(texts, order, text) };
    });
  }
}

interface PrefixSearch {
  startingWith(text: string): number[];
}

const NORMAL = 1;
const USER_DEFINED = 4;

/**
 * Normal tokens of a byte-level vocabulary are stored spelled one character per byte (GPT-2's
 * table), so a text is found by its spelling. Tokens without text are left out: control tokens,
 * and those llama.cpp makes control tokens by their looks (`</s>`, FIM tokens stored as normal or
 * user-defined). A few are matched by their text instead: user-defined tokens (stored as text), and
 * a space before punctuation, which some vocabularies' detokenizer drops (StarCoder's ` .` reads `.`).
 */
function byteLevelSearch(model: LlamaModel, stored: readonly string[], types: readonly number[]): PrefixSearch {
  const text = (t: number) => model.detokenize([t as Token]);
  const looksSpecial = (t: number) => (stored[t]![0] === "<" || stored[t]![0] === "[") && /^(<.*>|\[.*\])$/s.test(stored[t]!);
  const byText = (t: number) => types[t] === USER_DEFINED || (types[t] === NORMAL && /^\u0120[.,!?']/.test(stored[t]!));
  // A scan of the stored spellings (about 2 ms for 151k tokens) rather than an index sorted by
  // them: sorting took 200 ms on the first healed request and kept 8 MiB.
  const spelled = Uint8Array.from(stored, (_, t) => (types[t] === NORMAL && !byText(t) && (!looksSpecial(t) || text(t) !== "") ? 1 : 0));
  const others: { t: number; text: string }[] = [];
  for (let t = 0; t < stored.length; t++) {
    const read = byText(t) ? text(t) : "";
    if (read !== "") others.push({ t, text: read });
  }
  return {
    startingWith(start) {
      const spelling = byteLevelSpelling(start);
      const found: number[] = [];
      for (let t = 0; t < stored.length; t++) if (spelled[t] === 1 && stored[t]!.startsWith(spelling)) found.push(t);
      for (const o of others) if (o.text.startsWith(start)) found.push(o.t);
      return found;
    },
  };
}

const sortedByText = (texts: readonly string[], tokens: Int32Array) => tokens.sort((a, b) => (texts[a]! < texts[b]! ? -1 : texts[a]! > texts[b]! ? 1 : a - b));

/** GPT-2's byte-to-character table: printable bytes stand for themselves, the others for U+0100 on. */
const BYTE_CHARS: readonly string[] = (() => {
  const printable = (b: number) => (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
  let next = 256;
  return Array.from({ length: 256 }, (_, b) => String.fromCharCode(printable(b) ? b : next++));
})();

/** `text` as a byte-level vocabulary spells it. */
export function byteLevelSpelling(text: string): string {
  let spelled = "";
  for (const byte of Buffer.from(text, "utf8")) spelled += BYTE_CHARS[byte];
  return spelled;
}

/** The bytes a byte-level vocabulary's spelling stands for (byteLevelSpelling's inverse, pieces of characters too). */
export function byteLevelBytes(spelled: string): Uint8Array {
  return Uint8Array.from(spelled, (char) => BYTE_CHARS.indexOf(char));
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
