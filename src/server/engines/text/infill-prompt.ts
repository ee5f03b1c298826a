// Prompts in a model's own tokens: with its BOS token where it wants one, and fill-in-the-middle
// prompts in the layout the model was trained on, fitted to the context, with token healing where
// the layout allows it.
import type { LlamaModel, Token } from "node-llama-cpp";
import { EngineInputError } from "../../engine-input-error";
import type { FimLayout } from "../../models/llama-gguf";
import { fitInfill } from "./fit-infill";
import { tokenizeText } from "./inert-text";
import type { TokenHealing } from "./types";

/**
 * The prompt with the model's BOS token first where its tokenizer adds one (tokenizer.ggml.add_bos_token,
 * e.g. Llama 3, DeepSeek-Coder), as the models were trained and llama.cpp's server prompts them; never twice.
 */
export function withBos(model: LlamaModel, tokens: Token[]): Token[] {
  const bos = model.tokens.bos;
  return model.tokens.shouldPrependBosToken && bos !== null && tokens[0] !== bos ? [bos, ...tokens] : tokens;
}

/** The FIM layout the model declares (see FimLayout); prefix-suffix-middle when it says nothing. */
export function fimLayout(model: LlamaModel): FimLayout {
  const fim = (model.fileInfo.metadata as { wisp?: { fim?: { layout?: unknown; suffix_first?: unknown } } }).wisp?.fim;
  if (fim?.layout === "suffix-middle-prefix") return fim.layout;
  return fim?.suffix_first === true ? "suffix-first" : "prefix-suffix-middle";
}

/**
 * FIM prompt in the model's own tokens, in the layout the model declares it was trained on (see
 * FimLayout): with the suffix first, typing at the cursor only extends the prompt and the server
 * re-evaluates just the new tokens. Fitted to `contextSize` with room for `maxTokens` (see
 * fitInfill): an editor cannot know how many tokens its text makes.
 */
export function infillPrompt(model: LlamaModel, contextSize: number, prefix: string, suffix: string, maxTokens = 0): Token[] {
  const { prefix: pre, suffix: suf, middle: mid } = model.tokens.infill;
  if (pre === null || suf === null || mid === null) {
    throw new EngineInputError("this model has no fill-in-the-middle tokens: suffix is not supported", "suffix");
  }
  const limit = Math.min(contextSize, model.trainContextSize);
  const fitted = fitInfill(tokenizeText(model, prefix), tokenizeText(model, suffix), limit - 4 - Math.min(maxTokens, Math.floor(limit / 4)));
  switch (fimLayout(model)) {
    case "suffix-middle-prefix":
      return withBos(model, [pre, suf, ...fitted.suffix, mid, ...fitted.prefix]);
    case "suffix-first":
      return withBos(model, [suf, ...fitted.suffix, pre, ...fitted.prefix, mid]);
    default:
      return withBos(model, [pre, ...fitted.prefix, suf, ...fitted.suffix, mid]);
  }
}

/**
 * The FIM prompt with token healing (see TokenHealing) where the model's middle continues its
 * prefix (suffix-middle-prefix): the prefix's last token comes off the prompt, and the answer
 * starts by choosing it again or a longer token that begins with it. Otherwise infillPrompt.
 */
export function healedInfill(model: LlamaModel, contextSize: number, prefix: string, suffix: string, maxTokens = 0): { prompt: Token[]; heal?: TokenHealing } {
  const prompt = infillPrompt(model, contextSize, prefix, suffix, maxTokens);
  const last = prompt.at(-1)!;
  if (fimLayout(model) !== "suffix-middle-prefix" || last === model.tokens.infill.middle) return { prompt };
  const text = model.detokenize([last]);
  // A line break ends what the prefix says; a piece of a character cannot be matched as text.
  if (text === "" || text.includes("\n") || text.includes("\uFFFD")) return { prompt };
  return { prompt: prompt.slice(0, -1), heal: { token: last, text } };
}
