// This replica's cache of the keys it has checked, kept exact by the invalidation listener: every
// change of a key reaches it through LISTEN/NOTIFY and drops the key at once. While the listener
// is not connected (notifications may be missed), the cache is not trusted: checks go to the
// database, and only if that is away do cached keys keep working, for `graceMs` since the cache
// was last exact. A key checked more than `maxAgeMs` ago is checked again all the same: a listener
// whose connection died unnoticed must not keep a revoked key working for ever.
import { LruCache } from "../../../core/base/lru";
import type { KeyInfo } from "../../auth/key-records";

export interface KeyCacheOptions {
  /** The longest a key is trusted from the cache before the database is asked again, ms. */
  maxAgeMs?: number;
  capacity?: number;
  now?: () => number;
}

export class KeyCache {
  private readonly entries: LruCache<string, { key: KeyInfo; at: number }>;
  private readonly maxAgeMs: number;
  private readonly now: () => number;
  /** Moves on at every invalidation: a lookup started before one must not fill the cache. */
  private generation = 0;
  private listening = false;
  /** now() when the cache stopped being exact (the listener was lost). */
  private lostAt: number;

  constructor(
    private readonly graceMs: number,
    options: KeyCacheOptions = {},
  ) {
    this.entries = new LruCache(options.capacity ?? 10_000);
    this.maxAgeMs = options.maxAgeMs ?? 60_000;
    // Ages on a steady clock: a time of day set back an hour would trust a key for that hour.
    this.now = options.now ?? (() => performance.now());
    this.lostAt = this.now();
  }

  get size(): number {
    return this.entries.size;
  }

  /** Whether a hit can be trusted without asking the database. */
  get exact(): boolean {
    return this.listening;
  }

  /** A key checked while the cache is exact, within the last `maxAgeMs`. */
  get(hash: string): KeyInfo | undefined {
    if (!this.listening) return undefined;
    const entry = this.entries.get(hash);
    if (entry === undefined) return undefined;
    // Kept for an outage (stale() may still serve it), but no longer trusted as it is.
    if (this.now() - entry.at > this.maxAgeMs) return undefined;
    return entry.key;
  }

  /** A key checked before, while the database is away: within the grace period only. */
  stale(hash: string): KeyInfo | undefined {
    if (this.listening || this.now() - this.lostAt > this.graceMs) return undefined;
    return this.entries.peek(hash)?.key;
  }

  /** The generation a lookup starts in; `set` keeps its answer only if nothing changed since. */
  begin(): number {
    return this.generation;
  }

  set(hash: string, key: KeyInfo, since: number): void {
    if (this.listening && since === this.generation) this.entries.set(hash, { key, at: this.now() });
  }

  /** A key changed (payload of the notification): drop it; "*" drops every key. */
  invalidate(id: string): void {
    this.generation++;
    if (id === "*") return this.entries.clear();
    for (const [hash, entry] of this.entries) if (entry.key.id === id) this.entries.delete(hash);
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
