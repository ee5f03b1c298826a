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

/**
 * Where each token starts in a choice's text: at the character its first byte is part of. The
 * pieces of a character split over tokens read "\uFFFD" each but make one character (two UTF-16
 * units for an emoji) of the text. A streamed choice keeps one for all its chunks.
 */
export class TextOffsets {
  /** Bytes since the last whole character, and where they start in the text. */
  private tail: number[] = [];

  /** `at`: where the first entry starts (prompt length when echoing). */
  constructor(private at = 0) {}

  next(entries: readonly TokenLogprob[]): number[] {
    return entries.map((e) => {
      // The last character decoded holds the token's first byte (a U+FFFD where that is no character).
      const upTo = new TextDecoder().decode(Uint8Array.from([...this.tail, ...e.bytes.slice(0, 1)]));
      const start = this.at + upTo.length - (/[\uDC00-\uDFFF]$/.test(upTo) ? 2 : Math.min(upTo.length, 1));
      this.tail.push(...e.bytes);
      const decoder = new TextDecoder();
      const whole = decoder.decode(Uint8Array.from(this.tail), { stream: true });
      if (decoder.decode() === "") {
        this.at += whole.length;
        this.tail = [];
      }
      return start;
    });
  }
}

export function completionLogprobs(entries: TokenLogprob[], offsets: TextOffsets = new TextOffsets()) {
  const textOffset = offsets.next(entries);
  return {
    tokens: entries.map((e) => e.token),
    token_logprobs: entries.map((e) => e.logprob),
    // Keyed by text: when two tokens read the same, keep the likelier (listed first).
    top_logprobs: entries.map((e) => Object.fromEntries(e.top.toReversed().map((t) => [t.token, t.logprob]))),
    text_offset: textOffset,
  };
}
