// Bearer tokens that matched no key, remembered for a few seconds: a client retrying with a wrong
// or revoked key (a stale setting in a team's editors, a script in a loop) costs one key-store
// lookup (a database query in team mode) per `ttlMs`, not one per request. A key is never made
// from a secret tried before (new secrets are 256 random bits), so remembering a refusal cannot
// shut out a key created since; only a key brought in whole (db import) that a client had already
// tried waits up to `ttlMs`, on every replica.
import { createHash } from "node:crypto";
import { LruCache } from "../../core/base/lru";

export interface UnknownKeysOptions {
  ttlMs?: number;
  capacity?: number;
  now?: () => number;
}

export class UnknownKeys {
  /** sha256 of the token -> when it was refused; kept by hash, so no secret stays in memory. */
  private readonly refused: LruCache<string, number>;
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(options: UnknownKeysOptions = {}) {
    this.refused = new LruCache(options.capacity ?? 10_000);
    this.ttlMs = options.ttlMs ?? 5_000;
    // A steady clock: a time of day set back would keep a refusal for as long as it went back.
    this.now = options.now ?? (() => performance.now());
  }

  private static hash(token: string): string {
    return createHash("sha256").update(token, "utf8").digest("hex");
  }

  /** Whether `token` was refused within the last `ttlMs`. */
  has(token: string): boolean {
    const hash = UnknownKeys.hash(token);
    const at = this.refused.peek(hash);
    if (at === undefined) return false;
    if (this.now() - at < this.ttlMs) return true;
    this.refused.delete(hash);
    return false;
  }

  add(token: string): void {
    this.refused.set(UnknownKeys.hash(token), this.now());
  }
}
