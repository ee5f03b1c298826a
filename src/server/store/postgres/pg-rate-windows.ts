// --rate-limit across replicas: each admission is one call of wisp_admit (migrations/001), which
// counts the request in the key's window under the key's row lock, so replicas admitting at once
// never let more than the limit through. Tokens are read from the key's usage records (stamped by
// the database's clock too: pg-usage.ts). While the database is away, each replica limits by its
// own window in memory (a key may then get up to the limit from each replica).
import type { Pool } from "pg";
import type { RateLimit } from "../../upstreams/upstream-config";
import { RateLimiter, seconds, type RateRefusal, type RateWindows } from "../../usage/rate-limiter";
import type { DatabaseHealth } from "./database-health";

export class PgRateWindows implements RateWindows {
  private readonly local: RateLimiter;

  constructor(
    private readonly pool: Pool,
    private readonly health: DatabaseHealth,
    private readonly limit: RateLimit,
  ) {
    this.local = new RateLimiter(limit);
  }

  get enabled(): boolean {
    return this.local.enabled;
  }

  async admit(key: string): Promise<RateRefusal | undefined> {
    if (this.health.up) {
      try {
        const { rows } = await this.pool.query<{ retry_ms: string | null; reason: string | null }>("SELECT retry_ms, reason FROM wisp_admit($1, $2, $3)", [
          key,
          this.limit.requestsPerMinute,
          this.limit.tokensPerMinute,
        ]);
        const refused = rows[0];
        return refused?.retry_ms == null ? undefined : { retryAfterSeconds: seconds(Number(refused.retry_ms)), reason: refused.reason ?? "rate limit" };
      } catch (error) {
        if (!this.health.failed(error, "rate limit")) throw error;
      }
    }
    return this.local.admit(key);
  }

  /** Tokens reach the database with the usage records; the window in memory is for outages. */
  spent(key: string, tokens: number): void {
    this.local.spent(key, tokens);
  }
}
