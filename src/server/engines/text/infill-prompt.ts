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
  const room = limit - 4 - Math.min(maxTokens, Math.floor(limit / 4));
  const layout = fimLayout(model);
  if (layout === "prefix-suffix-middle") {
    const { head, line } = typedLine(model, prefix, room);
    const fitted = fitInfill(head, tokenizeText(model, suffix), room - line.length);
    return withBos(model, [pre, ...fitted.prefix, suf, ...fitted.suffix, mid, ...line]);
  }
  const fitted = fitInfill(tokenizeText(model, prefix), tokenizeText(model, suffix), room);
  return layout === "suffix-middle-prefix"
    ? withBos(model, [pre, suf, ...fitted.suffix, mid, ...fitted.prefix])
    : withBos(model, [suf, ...fitted.suffix, pre, ...fitted.prefix, mid]);
}

/**
 * A prefix-suffix-middle prompt puts the suffix after the prefix, so a prefix that grows with each
 * typed character made the server evaluate the whole suffix again per keystroke (800 characters,
 * about 200 tokens: most of a pause's wait for a 0.5B model on a CPU). The cursor's line up to the
 * cursor goes after the middle token instead, as the start of the middle (training middles start
 * anywhere, line starts included): the prompt up to there stays the same while the user types
 * on the line, and what was typed is all the server evaluates. A line too long for that (minified
 * code) stays in the prefix.
 */
function typedLine(model: LlamaModel, prefix: string, room: number): { head: Token[]; line: Token[] } {
  const start = prefix.lastIndexOf("\n") + 1;
  const line = tokenizeText(model, prefix.slice(start));
  if (line.length > room / 4) return { head: tokenizeText(model, prefix), line: [] };
  return { head: tokenizeText(model, prefix.slice(0, start)), line };
}

/**
 * The FIM prompt with token healing (see TokenHealing) where it ends with the text before the cursor
 * (suffix-middle-prefix, and prefix-suffix-middle with the cursor's line after the middle token):
 * its last token comes off the prompt, and the answer starts by choosing it again or a longer token
 * that begins with it. Otherwise infillPrompt.
 */
export function healedInfill(model: LlamaModel, contextSize: number, prefix: string, suffix: string, maxTokens = 0): { prompt: Token[]; heal?: TokenHealing } {
  const prompt = infillPrompt(model, contextSize, prefix, suffix, maxTokens);
  const last = prompt.at(-1)!;
  if (last === model.tokens.infill.middle) return { prompt };
  const text = model.detokenize([last]);
  // A line break ends what the prefix says; a piece of a character cannot be matched as text.
  if (text === "" || text.includes("\n") || text.includes("\uFFFD")) return { prompt };
  return { prompt: prompt.slice(0, -1), heal: { token: last, text } };
}
