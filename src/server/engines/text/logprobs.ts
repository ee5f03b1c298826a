// Per-token logprobs in the model's own distribution, as OpenAI reports them.
import type { LlamaModel, Token } from "node-llama-cpp";
import { tokenBytes } from "./token-bytes";
import type { TokenLogprob } from "./types";

// JSON has no -Infinity: a token with no probability gets a very low finite logprob instead.
const FLOOR = -9999;

/**
 * node-llama-cpp reports probabilities after temperature (softmax(logits / T)); OpenAI reports
 * the model's distribution, softmax(logits). With the whole vocabulary at hand the logits are
 * recoverable up to a constant: logit = T * log p. When top-k/top-p cut the list, or at T = 0
 * (where the library already reports softmax(logits)), the reported values are used as they are.
 */
function modelLogprobs(probabilities: Map<Token, number>, temperature: number, vocabularySize: number): Map<Token, number> {
  const rescale = temperature > 0 && temperature !== 1 && probabilities.size === vocabularySize;
  const scaled = new Map<Token, number>();
  for (const [token, p] of probabilities) scaled.set(token, rescale ? temperature * Math.log(p) : Math.log(p));
  if (!rescale) return scaled;
  let max = -Infinity;
  for (const v of scaled.values()) max = Math.max(max, v);
  let sum = 0;
  for (const v of scaled.values()) sum += Math.exp(v - max);
  const logSum = max + Math.log(sum);
  for (const [token, v] of scaled) scaled.set(token, v - logSum);
  return scaled;
}

export function logprobEntry(model: LlamaModel, token: Token, probabilities: Map<Token, number>, top: number, temperature: number): TokenLogprob {
  const logprobs = modelLogprobs(probabilities, temperature, model.fileInfo.metadata.tokenizer.ggml.tokens.length);
  const describe = (t: Token) => {
    const text = model.detokenize([t], true);
    return { token: text, bytes: tokenBytes(model, t, text) };
  };
  const logOf = (t: Token) => Math.max(logprobs.get(t) ?? -Infinity, FLOOR);
  // The map is sorted most likely first, and rescaling keeps the order.
  const alternatives = [...logprobs.keys()].slice(0, top).map((t) => ({ ...describe(t), logprob: logOf(t) }));
  return { ...describe(token), logprob: logOf(token), top: alternatives };
}
