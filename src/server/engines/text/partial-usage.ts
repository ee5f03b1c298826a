// A request that fails after part of it was generated (a later prompt of a list, a tool call after
// its free text) still used those tokens: the failure carries them, so they are counted against
// the key (usage and the token rate limit) rather than lost with the error.
import type { GenerationResult } from "./types";

export type PartialUsage = Omit<GenerationResult, "choices">;

export const NOTHING_USED: PartialUsage = { promptTokens: 0, completionTokens: 0, prompt: { evaluated: 0, cached: 0 }, tokensAfterAbort: 0 };

const partials = new WeakMap<object, PartialUsage>();

/** Rethrows `error` carrying `used` (added to what it already carries). */
export function withPartialUsage(error: unknown, used: PartialUsage): unknown {
  if (typeof error !== "object" || error === null) return error;
  const before = partials.get(error);
  partials.set(error, before ? addUsage(before, used) : used);
  return error;
}

/** What the failed request used before it failed, if anything was generated. */
export const partialUsageOf = (error: unknown): PartialUsage | undefined =>
  typeof error === "object" && error !== null ? partials.get(error) : undefined;

export function addUsage(a: PartialUsage, b: PartialUsage): PartialUsage {
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    prompt: { evaluated: a.prompt.evaluated + b.prompt.evaluated, cached: a.prompt.cached + b.prompt.cached },
    tokensAfterAbort: a.tokensAfterAbort + b.tokensAfterAbort,
  };
}
