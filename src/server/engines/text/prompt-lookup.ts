// Guesses the next tokens from the context itself (prompt lookup): where the last few tokens occurred
// before, what followed them then. Code completion repeats its context often (names, calls, whole
// lines), so the model can check several guessed tokens in one decode instead of one per decode.
import type { Token } from "node-llama-cpp";

/** The longest and shortest run of last tokens looked for (longer first: a longer match guesses better). */
const MATCH_MAX = 4;
const MATCH_MIN = 2;

/**
 * Up to `count` tokens that followed the most recent earlier occurrence of the context's last
 * MATCH_MAX..MATCH_MIN tokens, or none.
 */
export function lookupPrediction(context: readonly Token[], count: number): Token[] {
  if (count <= 0) return [];
  const end = context.length;
  for (let match = Math.min(MATCH_MAX, end - 1); match >= MATCH_MIN; match--) {
    // The most recent occurrence that has something after it, not counting the end itself.
    for (let at = end - match - 1; at >= 0; at--) {
      let same = true;
      for (let k = 0; k < match && same; k++) same = context[at + k] === context[end - match + k];
      if (same) return context.slice(at + match, Math.min(end, at + match + count));
    }
  }
  return [];
}
