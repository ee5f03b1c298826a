// This replica's cache of the keys it has checked, kept exact by the invalidation listener: every
// change of a key reaches it through LISTEN/NOTIFY and drops the key at once. While the listener
// is not connected (notifications may be missed), the cache is not trusted: checks go to the
// database, and only if that is away do cached keys keep working, for `graceMs` since the cache
// was last exact.
import { LruCache } from "../../../core/base/lru";
import type { KeyInfo } from "../../auth/key-records";

export class KeyCache {
  private readonly entries: LruCache<string, KeyInfo>;
  /** Moves on at every invalidation: a lookup started before one must not fill the cache. */
  private generation = 0;
  private listening = false;
  /** Date.now() when the cache stopped being exact (the listener was lost). */
  private lostAt = Date.now();

  constructor(
    private readonly graceMs: number,
    capacity = 10_000,
    private readonly now: () => number = Date.now,
  ) {
    this.entries = new LruCache(capacity);
  }

  get size(): number {
    return this.entries.size;
  }

  /** Whether a hit can be trusted without asking the database. */
  get exact(): boolean {
    return this.listening;
  }

  /** A key checked while the cache is exact. */
  get(hash: string): KeyInfo | undefined {
    return this.listening ? this.entries.get(hash) : undefined;
  }

  /** A key checked before, while the database is away: within the grace period only. */
  stale(hash: string): KeyInfo | undefined {
    if (this.listening || this.now() - this.lostAt > this.graceMs) return undefined;
    return this.entries.peek(hash);
  }

  /** The generation a lookup starts in; `set` keeps its answer only if nothing changed since. */
  begin(): number {
    return this.generation;
  }

  set(hash: string, key: KeyInfo, since: number): void {
    if (this.listening && since === this.generation) this.entries.set(hash, key);
  }

  /** A key changed (payload of the notification): drop it; "*" drops every key. */
  invalidate(id: string): void {
    this.generation++;
    if (id === "*") return this.entries.clear();
    for (const [hash, key] of this.entries) if (key.id === id) this.entries.delete(hash);
  }

  /** The listener is connected and listening: the cache starts exact, from empty. */
  listen(): void {
    this.generation++;
    this.entries.clear();
    this.listening = true;
  }

  /** The listener was lost: notifications may be missed from now on. */
  lost(): void {
    if (!this.listening) return;
    this.generation++;
    this.listening = false;
    this.lostAt = this.now();
  }
}
