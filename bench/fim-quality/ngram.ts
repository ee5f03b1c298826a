// The simple baseline: a token n-gram model (orders 1 to 4, "stupid backoff" to the longest
// context seen) counted over training text, continuing the prefix greedily. It sees no suffix.

const ORDER = 4;

/** A context of up to ORDER - 1 tokens as a map key. */
const key = (tokens: readonly number[], end: number, length: number) => tokens.slice(end - length, end).join(",");

export class NgramModel {
  /** For each context length: context -> next token -> count. */
  private readonly counts: Map<string, Map<number, number>>[] = Array.from({ length: ORDER }, () => new Map());
  /** The likeliest next token per context, filled in by `finish`. */
  private readonly best: Map<string, number>[] = Array.from({ length: ORDER }, () => new Map());

  add(tokens: readonly number[]): void {
    for (let i = 0; i < tokens.length; i++) {
      for (let length = 0; length < ORDER && length <= i; length++) {
        const context = key(tokens, i, length);
        const table = this.counts[length]!;
        let next = table.get(context);
        if (!next) table.set(context, (next = new Map()));
        next.set(tokens[i]!, (next.get(tokens[i]!) ?? 0) + 1);
      }
    }
  }

  /** Keeps only the likeliest continuation of each context (ties: the smaller token id). */
  finish(): void {
    this.counts.forEach((table, length) => {
      for (const [context, next] of table) {
        let bestToken = -1;
        let bestCount = 0;
        for (const [token, count] of next) if (count > bestCount || (count === bestCount && token < bestToken)) [bestToken, bestCount] = [token, count];
        this.best[length]!.set(context, bestToken);
      }
      table.clear();
    });
  }

  /** Greedy continuation of `prompt`, at most `maxTokens`, stopping once `stop` says so. */
  continue(prompt: readonly number[], maxTokens: number, stop: (generated: number[]) => boolean): number[] {
    const tokens = [...prompt];
    const generated: number[] = [];
    while (generated.length < maxTokens && !stop(generated)) {
      let next: number | undefined;
      for (let length = Math.min(ORDER - 1, tokens.length); length >= 0 && next === undefined; length--) next = this.best[length]!.get(key(tokens, tokens.length, length));
      if (next === undefined) break;
      tokens.push(next);
      generated.push(next);
    }
    return generated;
  }
}
