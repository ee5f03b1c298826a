// Detokenizes generated tokens incrementally: settled text is kept, only the unsettled tail (a
// multi-byte character split across tokens) is decoded again, so each token costs O(1) decoding.
import type { LlamaModel, Token } from "node-llama-cpp";

export class IncrementalText {
  private settled = "";
  private settledTokens = 0;
  private readonly tokens: Token[] = [];

  constructor(private readonly model: LlamaModel) {}

  /** Appends a token and returns the whole text so far. */
  push(token: Token): string {
    this.tokens.push(token);
    const tail = this.model.detokenize(this.tokens.slice(this.settledTokens));
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
