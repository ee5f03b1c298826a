import { LruCache } from "../base/lru";
import { anchorOf, extendsAnchor, type PrefixAnchor } from "./prefix-anchor";

/** What a completion depends on: scope (file, model, template), text before and after the cursor. */
export interface CacheContext {
  readonly scope: string;
  readonly prefix: string;
  readonly suffix: string;
}

export interface CacheHit {
  /** The ghost text to show now ("" for a remembered empty result). */
  readonly text: string;
  /** How many characters of a cached suggestion the user has typed since (0 for an exact hit). */
  readonly typed: number;
}

interface Entry extends PrefixAnchor {
  readonly scope: string;
  readonly suffixHead: string;
  readonly text: string;
}

/**
 * A bounded LRU of shown suggestions keyed on their context, which also serves type-through:
 * when the text before the cursor is a cached context plus the start of its suggestion, the rest
 * of that suggestion is the answer, with no request. Keys hold only the prefix's tail, so memory
 * stays small on big files.
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

  set(ctx: CacheContext, text: string): void {
    const entry: Entry = {
      scope: ctx.scope,
      ...anchorOf(ctx.prefix, this.tailChars),
      suffixHead: ctx.suffix.slice(0, this.suffixChars),
      text,
    };
    this.entries.set(keyOf(entry), entry);
  }

  get(ctx: CacheContext): CacheHit | undefined {
    const suffixHead = ctx.suffix.slice(0, this.suffixChars);
    const tail = ctx.prefix.slice(-this.tailChars);
    const exact = this.entries.get(keyOf({ scope: ctx.scope, tail, suffixHead }));
    if (exact) return { text: exact.text, typed: 0 };
    const recentFirst = [...this.entries].reverse();
    for (const [key, entry] of recentFirst) {
      if (entry.scope !== ctx.scope || entry.suffixHead !== suffixHead) continue;
      const typed = typedInto(entry, ctx.prefix);
      if (typed > 0) {
        this.entries.get(key); // mark used
        return { text: entry.text.slice(typed), typed };
      }
    }
    return undefined;
  }
}

/** How many characters of `entry.text` end `prefix` right after the entry's own prefix (0: none). */
function typedInto(entry: Entry, prefix: string): number {
  const last = prefix.charCodeAt(prefix.length - 1);
  for (let k = 1; k < entry.text.length; k++) {
    if (entry.text.charCodeAt(k - 1) !== last) continue; // cheap filter before comparing strings
    if (!extendsAnchor(entry, prefix, k) || !prefix.endsWith(entry.text.slice(0, k))) continue;
    return entry.text.slice(k).trim() === "" ? 0 : k;
  }
  return 0;
}

function keyOf(e: Pick<Entry, "scope" | "tail" | "suffixHead">): string {
  return `${e.scope}\u0000${e.tail}\u0000${e.suffixHead}`;
}
