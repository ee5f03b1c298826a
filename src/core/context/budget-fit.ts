/**
 * Fits what goes with a chat message into the room the model's context window leaves: the least
 * relevant parts are cut first, the largest first among equals, and each cut is reported so the
 * user sees what the model did not get.
 */

export interface BudgetItem {
  readonly id: string;
  readonly text: string;
  /** Higher is more relevant. What the user attached by hand ranks above what Wisp found. */
  readonly relevance: number;
}

export interface FittedItem {
  readonly id: string;
  readonly text: string;
  /** Lines kept from the start of the item, when it was shortened. */
  readonly keptLines?: number;
}

export interface Cut {
  readonly id: string;
  /** Left out entirely, or shortened to keptLines of totalLines. */
  readonly dropped: boolean;
  readonly keptLines: number;
  readonly totalLines: number;
}

export interface FitResult {
  readonly items: FittedItem[];
  readonly cuts: Cut[];
  readonly tokens: number;
}

/** An item shortened below this many tokens is left out instead: a few lines of a file mislead. */
const smallestUsefulTokens = 64;

export function fitToBudget(items: readonly BudgetItem[], budgetTokens: number, tokensPerChar: number): FitResult {
  const cost = (text: string) => Math.ceil(text.length * tokensPerChar);
  const kept = new Map(items.map((i) => [i.id, i.text]));
  let total = items.reduce((sum, i) => sum + cost(i.text), 0);
  const cuts: Cut[] = [];
  const victims = [...items].sort((x, y) => x.relevance - y.relevance || y.text.length - x.text.length);
  for (const victim of victims) {
    if (total <= budgetTokens) break;
    const over = total - budgetTokens;
    const size = cost(victim.text);
    const totalLines = lineCount(victim.text);
    // Whole lines only: a file of long lines (a minified bundle, one-line JSON) may keep none.
    const shortened = size - over >= smallestUsefulTokens ? headWithin(victim.text, Math.floor((size - over) / tokensPerChar)) : "";
    if (cost(shortened) >= smallestUsefulTokens) {
      kept.set(victim.id, shortened);
      total -= size - cost(shortened);
      cuts.push({ id: victim.id, dropped: false, keptLines: lineCount(shortened), totalLines });
    } else {
      kept.delete(victim.id);
      total -= size;
      cuts.push({ id: victim.id, dropped: true, keptLines: 0, totalLines });
    }
  }
  const fitted = items
    .filter((i) => kept.has(i.id))
    .map((i): FittedItem => {
      const text = kept.get(i.id)!;
      return text === i.text ? { id: i.id, text } : { id: i.id, text, keptLines: lineCount(text) };
    });
  return { items: fitted, cuts, tokens: total };
}

function lineCount(text: string): number {
  if (text === "") return 0;
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

/** The whole lines from the start of `text` that fit in `chars` characters. */
function headWithin(text: string, chars: number): string {
  if (text.length <= chars) return text;
  const cut = text.lastIndexOf("\n", chars);
  return cut <= 0 ? "" : text.slice(0, cut);
}
