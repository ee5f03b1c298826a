// Maps OpenAI sampling fields onto node-llama-cpp's per-evaluation options.
import { randomInt } from "node:crypto";
import {
  LlamaGrammarEvaluationState,
  TokenBias,
  type LlamaModel,
  type SequenceEvaluateOptions,
  type Token,
} from "node-llama-cpp";
import type { SamplingSettings } from "./types";

/** `logitBias` as node-llama-cpp's TokenBias, with `never` ruled out. */
function tokenBiasFor(model: LlamaModel, logitBias: ReadonlyMap<Token, number>, never: readonly Token[] = []): TokenBias {
  const bias = new TokenBias(model.tokenizer);
  // The entries the native sampler reads, written directly: TokenBias.set() tokenizes its input
  // twice and asks the tokenizer about each token (0.7 µs a token: a long bias cost 100 ms), and
  // it silently skips end-of-generation tokens, which OpenAI clients bias to force or forbid stopping.
  const entries = (bias as unknown as { _biases: Map<Token, number> })._biases;
  for (const [token, value] of logitBias) entries.set(token, value);
  for (const token of never) bias.set(token, "never");
  return bias;
}

/**
 * The sampler's 32-bit seed for a request's (64-bit) seed and choice. node-llama-cpp would take every
 * negative seed as 0 and wrap the others modulo 2^32: seeds from 0 to 2^32 - 2 stay as they are
 * (their streams unchanged), the others are hashed (splitmix64's finalizer) to a value of their
 * own. 2^32 - 1 is llama.cpp's "pick a random seed", never passed.
 */
export function samplerSeed(seed: number, choiceIndex: number): number {
  let value = BigInt.asUintN(64, BigInt(seed) + BigInt(choiceIndex));
  if (value < 0xffffffffn) return Number(value);
  value = BigInt.asUintN(64, (value ^ (value >> 30n)) * 0xbf58476d1ce4e5b9n);
  value = BigInt.asUintN(64, (value ^ (value >> 27n)) * 0x94d049bb133111ebn);
  value ^= value >> 31n;
  return Number((value ^ (value >> 32n)) & 0xffffffffn) % 0xffffffff;
}

/**
 * The request's sampling with a seed: its own, or one drawn for it. Unseeded, node-llama-cpp seeds
 * every sequence with the current second, so n choices (and a retry) within a second were the same.
 */
export function withSeed(sampling: SamplingSettings): SamplingSettings {
  return sampling.seed === undefined ? { ...sampling, seed: randomInt(0xffffffff) } : sampling;
}

/**
 * Options for one choice; `generated` is that choice's output so far (what penalties punish);
 * `ruledOut`, asked before each token, what must not come next (see CharacterContinuations).
 */
export function evaluateOptions(
  model: LlamaModel,
  sampling: SamplingSettings,
  choiceIndex: number,
  generated: readonly Token[],
  ruledOut?: () => readonly Token[],
): SequenceEvaluateOptions {
  const bias = sampling.logitBias.size > 0 || ruledOut ? tokenBiasFor(model, sampling.logitBias) : undefined;
  const penalize = sampling.presencePenalty !== 0 || sampling.frequencyPenalty !== 0;
  return {
    temperature: sampling.temperature,
    topP: sampling.topP,
    topK: sampling.topK,
    // Distinct seeds per choice, or n > 1 with a seed would return n identical choices.
    seed: sampling.seed === undefined ? undefined : samplerSeed(sampling.seed, choiceIndex),
    tokenBias: ruledOut
      ? () => {
          const never = ruledOut();
          return never.length === 0 ? bias! : tokenBiasFor(model, sampling.logitBias, never);
        }
      : bias,
    repeatPenalty: penalize
      ? {
          punishTokens: () => generated as Token[],
          penalty: 1,
          presencePenalty: sampling.presencePenalty,
          frequencyPenalty: sampling.frequencyPenalty,
        }
      : undefined,
    grammarEvaluationState: sampling.grammar ? new LlamaGrammarEvaluationState({ model, grammar: sampling.grammar }) : undefined,
  };
}
