// OpenAI's two logprobs shapes: chat (`content[]` entries) and legacy completions (parallel arrays).
import type { TokenLogprob } from "../engines/text/types";

export function chatLogprobs(entries: TokenLogprob[]) {
  return {
    content: entries.map((e) => ({
      token: e.token,
      logprob: e.logprob,
      bytes: e.bytes,
      top_logprobs: e.top.map((t) => ({ token: t.token, logprob: t.logprob, bytes: t.bytes })),
    })),
    refusal: null,
  };
}

/** `offset` is where the first entry's text starts in the choice text (prompt length when echoing). */
export function completionLogprobs(entries: TokenLogprob[], offset = 0) {
  const textOffset: number[] = [];
  let at = offset;
  for (const e of entries) {
    textOffset.push(at);
    at += e.token.length;
  }
  return {
    tokens: entries.map((e) => e.token),
    token_logprobs: entries.map((e) => e.logprob),
    // Keyed by text: when two tokens read the same, keep the likelier (listed first).
    top_logprobs: entries.map((e) => Object.fromEntries(e.top.toReversed().map((t) => [t.token, t.logprob]))),
    text_offset: textOffset,
  };
}
