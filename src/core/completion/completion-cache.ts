import { LruCache } from "../base/lru";
import { isSubsequence, noSuggestion, tidy, type Suggestion } from "./placement";
import { anchorOf, extendsAnchor, type PrefixAnchor } from "./prefix-anchor";
import { insertedClosers, suffixHeadOf, type SuffixHead } from "./suffix-head";

/** What a completion depends on: scope (file, model, template), text before and after the cursor. */
export interface CacheContext {
  readonly scope: string;
  readonly prefix: string;
  readonly suffix: string;
}

export interface CacheHit extends Suggestion {
  /** How many characters of a cached suggestion the user has typed since (0 for an exact hit). */
  readonly typed: number;
}

interface Entry extends PrefixAnchor {
  readonly scope: string;
  readonly suffixHead: SuffixHead;
  readonly suggestion: Suggestion;
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

  set(ctx: CacheContext, suggestion: Suggestion): void {
    const entry: Entry = {
      scope: ctx.scope,
      ...anchorOf(ctx.prefix, this.tailChars),
      suffixHead: suffixHeadOf(ctx.suffix, this.suffixChars),
      suggestion,
    };
    this.entries.set(keyOf(entry), entry);
  }

  get(ctx: CacheContext): CacheHit | undefined {
    const suffixHead = suffixHeadOf(ctx.suffix, this.suffixChars);
    const tail = ctx.prefix.slice(-this.tailChars);
    const exact = this.entries.get(keyOf({ scope: ctx.scope, tail, suffixHead }));
    if (exact) return { ...exact.suggestion, typed: 0 };
    const recentFirst = [...this.entries].reverse();
    for (const [key, entry] of recentFirst) {
      if (entry.scope !== ctx.scope) continue;
      const inserted = insertedClosers(entry.suffixHead, ctx.suffix);
      if (inserted === -1) continue;
      const hit = typedInto(entry, ctx, inserted);
      if (hit) {
        this.entries.get(key); // mark used
        return hit;
      }
    }
    return undefined;
  }
}

/**
 * The rest of `entry`'s suggestion once the user has typed its start (and the editor inserted
 * `inserted` closers after the cursor), when that rest still shows and is not blank.
 */
function typedInto(entry: Entry, ctx: CacheContext, inserted: number): CacheHit | undefined {
  const { text, replace } = entry.suggestion;
  const prefix = ctx.prefix;
  const last = prefix.charCodeAt(prefix.length - 1);
  for (let k = 1; k < text.length; k++) {
    if (text.charCodeAt(k - 1) !== last) continue; // cheap filter before comparing strings
    if (!extendsAnchor(entry, prefix, k) || !prefix.endsWith(text.slice(0, k))) continue;
    const rest = text.slice(k);
    const lineSuffix = ctx.suffix.slice(0, (ctx.suffix + "\n").indexOf("\n"));
    const replaced = lineSuffix.slice(0, inserted + replace);
    // The editor must be able to draw the rest around what it replaces.
    if (!isSubsequence(replaced, rest)) return undefined;
    const hit = tidy({ text: rest, replace: inserted + replace }, lineSuffix);
    return hit === noSuggestion ? undefined : { ...hit, typed: k };
  }
  return undefined;
}

function keyOf(e: { scope: string; tail: string; suffixHead: SuffixHead }): string {
  return `${e.scope}\u0000${e.tail}\u0000${e.suffixHead.head}\u0000${e.suffixHead.whole ? 1 : 0}`;
}
