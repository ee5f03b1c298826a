// Detokenizes generated tokens incrementally: settled text is kept, only the unsettled tail (a
// multi-byte character split across tokens) is decoded again, so each token costs O(1) decoding.
import type { LlamaModel, Token } from "node-llama-cpp";

/** How many preceding tokens a piece is detokenized after (node-llama-cpp reads at most its last 3). */
const CONTEXT = 4;

/**
 * The text of `tokens` as it continues `before` (the prompt, then earlier generated tokens).
 * Detokenized alone, a SentencePiece vocabulary's piece loses its leading space, as at a text's
 * start: "▁world" would read "world" and a Llama 2 answer "Helloworld".
 */
export function continuation(model: LlamaModel, tokens: readonly Token[], before: readonly Token[]): string {
  return model.detokenize(tokens, false, before.slice(-CONTEXT));
}

export class IncrementalText {
  private settled = "";
  private settledTokens = 0;
  private readonly tokens: Token[] = [];

  /** `prompt`: the tokens the generated ones follow (only its last few are read). */
  constructor(
    private readonly model: LlamaModel,
    private readonly prompt: readonly Token[] = [],
  ) {}

  /** Appends a token and returns the whole text so far. */
  push(token: Token): string {
    this.tokens.push(token);
    const start = this.settledTokens;
    const before = start >= CONTEXT ? this.tokens.slice(start - CONTEXT, start) : [...this.prompt.slice(-CONTEXT), ...this.tokens.slice(0, start)];
    const tail = continuation(this.model, this.tokens.slice(start), before);
    if (tail.endsWith("\uFFFD")) return this.settled + tail;
    this.settled += tail;
    this.settledTokens = this.tokens.length;
    return this.settled;
  }

  /** The tokens of a character not yet whole (none when the text so far ends with one). */
  pending(): readonly Token[] {
    return this.tokens.slice(this.settledTokens);
  }
}
