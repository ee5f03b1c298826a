// What the engine reads from each token's text, made once per model: the texts themselves, the
// tokens that end a line (line copying), and the bias that heals a prompt's last token.
import type { LlamaModel, Token } from "node-llama-cpp";
import { markerPattern } from "./inert-text";

/**
 * Added to the logits of the tokens healing lets through: above any logit a model gives and any
 * bias a client may set (OpenAI's range is -100 to 100), so no other token can come first, while
 * the allowed tokens keep their own order and probabilities.
 */
export const HEALING_BOOST = 1000;

/** Tokens handled between two turns of the event loop while a model's tables are built ahead (a few ms each). */
const SLICE = 16_384;

/** A build done a slice of the vocabulary at a time: each `yield` is a place to let other work run. */
type Slices<T> = Generator<void, T, void>;

/** How each model's search and line ends came to be built (GET /metrics). */
export interface TokenTableCounts {
  /** Right after the model loaded, off the requests' path. */
  builtAtLoad: number;
  /** By a request that needed them before they were ready (it finished the build itself). */
  builtOnRequest: number;
}

interface Tables {
  search: PrefixSearch;
  lineEnds: Int32Array;
}

export class TokenTexts {
  private readonly texts = new WeakMap<LlamaModel, string[]>();
  private readonly tables = new WeakMap<LlamaModel, Tables>();
  /** Builds started and not finished, to be finished by whoever needs them first. */
  private readonly building = new WeakMap<LlamaModel, Slices<Tables>>();
  private readonly preparing = new WeakMap<LlamaModel, Promise<void>>();
  readonly counts: TokenTableCounts = { builtAtLoad: 0, builtOnRequest: 0 };

  /** Each token's text (a piece of a character reads as U+FFFD). */
  of(model: LlamaModel): string[] {
    return this.texts.get(model) ?? finish(this.textsOf(model));
  }

  /**
   * Builds the model's search and line ends ahead of the requests that read them (on a byte-level
   * vocabulary of 151k tokens, 45-80 ms and 17-25 ms: a first healed request paid them), and the
   * pattern of its marker-like tokens that prompts are tokenized with (7-12 ms): called
   * when the model loads. The build runs a slice of the vocabulary per turn of the event loop, so
   * requests and the server's start go on meanwhile; one that needs the tables before they are
   * ready finishes the build itself. Resolves once they are built.
   */
  prepare(model: LlamaModel): Promise<void> {
    let prepared = this.preparing.get(model);
    if (!prepared) {
      prepared = (async () => {
        while (!this.tables.has(model)) {
          await new Promise<void>((resolve) => setImmediate(resolve));
          // A request may have finished the build meanwhile, or the engine freed the model.
          if (this.tables.has(model) || model.disposed) return;
          const next = this.started(model).next();
          if (next.done) this.built(model, next.value, "builtAtLoad");
        }
      })().catch(() => {
        // A build that failed stops there: the request that needs the tables starts it again and meets the error itself.
        this.building.delete(model);
      });
      this.preparing.set(model, prepared);
    }
    return prepared;
  }

  /** Tokens whose text starts with a line break, and the end-of-generation ones (see runLineChoice). */
  lineEnds(model: LlamaModel): Int32Array {
    return this.ready(model).lineEnds;
  }

  /**
   * `logitBias`, with only tokens whose text starts with `text` let through (token healing). A
   * real vocabulary has 150k tokens and a healed text a few dozen that fit: those are raised by
   * HEALING_BOOST, rather than every other token ruled out (a 150k-entry bias took 120-160 ms a
   * request to build on a 0.5B model's vocabulary, in the time to its first token).
   */
  healingBias(model: LlamaModel, logitBias: ReadonlyMap<Token, number>, text: string): Map<Token, number> {
    const bias = new Map(logitBias);
    for (const token of this.ready(model).search.startingWith(text)) bias.set(token as Token, (logitBias.get(token as Token) ?? 0) + HEALING_BOOST);
    return bias;
  }

  /** The model's tables, built now (what is left of them) where prepare has not built them yet. */
  private ready(model: LlamaModel): Tables {
    const tables = this.tables.get(model);
    if (tables) return tables;
    try {
      return this.built(model, finish(this.started(model)), "builtOnRequest");
    } catch (error) {
      this.building.delete(model);
      throw error;
    }
  }

  private built(model: LlamaModel, tables: Tables, how: keyof TokenTableCounts): Tables {
    this.tables.set(model, tables);
    this.building.delete(model);
    this.counts[how]++;
    return tables;
  }

  private started(model: LlamaModel): Slices<Tables> {
    let slices = this.building.get(model);
    if (!slices) this.building.set(model, (slices = this.build(model)));
    return slices;
  }

  private *build(model: LlamaModel): Slices<Tables> {
    const search = yield* this.search(model);
    const ends = new Set([...search.startingWith("\n"), ...search.startingWith("\r\n")]);
    const count = model.fileInfo.metadata.tokenizer?.ggml?.tokens?.length ?? 0;
    for (let t = 0; t < count; t++) {
      if (model.isEogToken(t as Token)) ends.add(t);
      if (t % SLICE === SLICE - 1) yield;
    }
    yield;
    // Prompts read this one (tokenizeText): 7-12 ms on Qwen's vocabulary.
    markerPattern(model);
    return { search, lineEnds: Int32Array.from(ends).sort() };
  }

  private *textsOf(model: LlamaModel): Slices<string[]> {
    const count = model.fileInfo.metadata.tokenizer?.ggml?.tokens?.length ?? 0;
    const texts: string[] = [];
    for (let t = 0; t < count; t++) {
      texts.push(model.detokenize([t as Token]));
      if (t % SLICE === SLICE - 1) yield;
    }
    // Another caller may have made them while this one waited between slices: keep the first.
    if (!this.texts.has(model)) this.texts.set(model, texts);
    return this.texts.get(model)!;
  }

  /**
   * Finds tokens by the start of their text. A byte-level vocabulary (GGUF tokenizer "gpt2": Qwen,
   * Llama 3, DeepSeek-Coder, StarCoder, Wisp's own) is searched in the spellings the GGUF already
   * holds in memory; building every token's text and sorting them took 230 ms and 12-20 MiB on
   * Qwen's 151k tokens, the first time a prompt was healed. Other vocabularies are searched in
   * their texts, sorted.
   */
  private *search(model: LlamaModel): Slices<PrefixSearch> {
    const ggml = model.fileInfo.metadata.tokenizer?.ggml as { model?: string; tokens?: readonly string[]; token_type?: readonly number[] } | undefined;
    if (ggml?.model === "gpt2" && ggml.tokens && ggml.token_type?.length === ggml.tokens.length) return yield* byteLevelSearch(model, ggml.tokens, ggml.token_type);
    const texts = this.texts.get(model) ?? (yield* this.textsOf(model));
    const order = sortedByText(texts, Int32Array.from(texts.keys()));
    return { startingWith: (text) => tokensStartingWith(texts, order, text) };
  }
}

/** Runs the rest of a build at once. */
function finish<T>(slices: Slices<T>): T {
  for (;;) {
    const next = slices.next();
    if (next.done) return next.value;
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
function* byteLevelSearch(model: LlamaModel, stored: readonly string[], types: readonly number[]): Slices<PrefixSearch> {
  const text = (t: number) => model.detokenize([t as Token]);
  const looksSpecial = (t: number) => (stored[t]![0] === "<" || stored[t]![0] === "[") && /^(<.*>|\[.*\])$/s.test(stored[t]!);
  const byText = (t: number) => types[t] === USER_DEFINED || (types[t] === NORMAL && /^\u0120[.,!?']/.test(stored[t]!));
  // A scan of the stored spellings (about 2 ms for 151k tokens) rather than an index sorted by
  // them: sorting took 200 ms on the first healed request and kept 8 MiB.
  const spelled = new Uint8Array(stored.length);
  const others: { t: number; text: string }[] = [];
  for (let t = 0; t < stored.length; t++) {
    if (byText(t)) {
      const read = text(t);
      if (read !== "") others.push({ t, text: read });
    } else if (types[t] === NORMAL && (!looksSpecial(t) || text(t) !== "")) spelled[t] = 1;
    if (t % SLICE === SLICE - 1) yield;
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
