import { LruCache } from "../base/lru";
import { isSubsequence, noSuggestion, tidy, type Suggestion } from "./placement";
import { anchorOf, extendsAnchor, type PrefixAnchor } from "./prefix-anchor";
import { closerChange, suffixHeadOf, type CloserChange, type SuffixHead } from "./suffix-head";

/** What a completion depends on: scope (file, model, template), text before and after the cursor. */
export interface CacheContext {
  readonly scope: string;
  readonly prefix: string;
  readonly suffix: string;
}

export interface CacheHit extends Suggestion {
  /** How many characters of a cached suggestion the user has typed since (0 for an exact hit). */
  readonly typed: number;
  /** The entry is a block's first line shown before the rest came (see set). */
  readonly partial: boolean;
}

interface Entry extends PrefixAnchor {
  readonly scope: string;
  readonly suffixHead: SuffixHead;
  readonly suggestion: Suggestion;
  readonly partial: boolean;
}

/**
 * A bounded LRU of shown suggestions keyed on their context, which also serves type-through:
 * when the text before the cursor is a cached context plus the start of its suggestion, the rest
 * of that suggestion is the answer, with no request. The editor may have inserted closers after
 * the cursor meanwhile (typing `(` gives `(|)`): the rest then replaces them too, so accepting
 * it gives the document the cached suggestion would have given. Keys hold only the prefix's tail,
 * so memory stays small on big files.
 */
export class CompletionCache {
  private readonly entries: LruCache<string, Entry>;

  constructor(
    capacity = 128,
    private readonly tailChars = 400,
    private readonly suffixChars = 200,
  ) {
    this.entries = new LruCache(capacity);
  }

  /**
   * `partial`: the first line of a block still streaming, which its request replaces when it
   * ends; a hit on it tells the caller that more may come.
   */
  set(ctx: CacheContext, suggestion: Suggestion, partial = false): void {
    const entry: Entry = {
      scope: ctx.scope,
      ...anchorOf(ctx.prefix, this.tailChars),
      suffixHead: suffixHeadOf(ctx.suffix, this.suffixChars),
      suggestion,
      partial,
    };
    this.entries.set(keyOf(entry), entry);
  }

  get(ctx: CacheContext): CacheHit | undefined {
    const suffixHead = suffixHeadOf(ctx.suffix, this.suffixChars);
    const tail = ctx.prefix.slice(-this.tailChars);
    const exact = this.entries.get(keyOf({ scope: ctx.scope, tail, suffixHead }));
    if (exact) return { ...exact.suggestion, typed: 0, partial: exact.partial };
    const recentFirst = [...this.entries].reverse();
    for (const [key, entry] of recentFirst) {
      if (entry.scope !== ctx.scope) continue;
      const change = closerChange(entry.suffixHead, ctx.suffix, entry.suggestion.replace);
      if (!change) continue;
      const hit = typedInto(entry, ctx, change);
      if (hit) {
        this.entries.get(key); // mark used
        return hit;
      }
    }
    return undefined;
  }
}

/**
 * The rest of `entry`'s suggestion once the user has typed its start (while the editor inserted
 * closers after the cursor, or the user typed over ones the suggestion replaces), when that rest
 * still shows and is not blank.
 */
function typedInto(entry: Entry, ctx: CacheContext, change: CloserChange): CacheHit | undefined {
  const { text, replace } = entry.suggestion;
  const prefix = ctx.prefix;
  const last = prefix.charCodeAt(prefix.length - 1);
  for (let k = 1; k < text.length; k++) {
    if (text.charCodeAt(k - 1) !== last) continue; // cheap filter before comparing strings
    if (!extendsAnchor(entry, prefix, k) || !prefix.endsWith(text.slice(0, k))) continue;
    const rest = text.slice(k);
    const lineSuffix = ctx.suffix.slice(0, (ctx.suffix + "\n").indexOf("\n"));
    // The rest replaces the closers the editor inserted meanwhile and those the suggestion replaced
    // (less the ones typed over), as far as it writes them itself: the editor draws the rest around
    // what it replaces, and keeps the others (`[` typed into "[x" leaves "[x]").
    let replaced = change.inserted + replace - change.typedOver;
    while (replaced > 0 && !isSubsequence(lineSuffix.slice(0, replaced), rest)) replaced--;
    const hit = tidy({ text: rest, replace: replaced }, lineSuffix);
    return hit === noSuggestion ? undefined : { ...hit, typed: k, partial: entry.partial };
  }
  return undefined;
}

function keyOf(e: { scope: string; tail: string; suffixHead: SuffixHead }): string {
  return `${e.scope}\u0000${e.tail}\u0000${e.suffixHead.head}\u0000${e.suffixHead.whole ? 1 : 0}`;
}
