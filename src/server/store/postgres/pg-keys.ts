// API keys in the database. A check reads this replica's cache first (exact: see key-cache.ts);
// a miss asks the database by the secret's SHA-256. When the database is away, keys checked
// before keep working for the grace period; any other key gets a 503, never let in. A key's
// creation and revocation times are the database's: a replica's clock may be minutes off.
import { createHash } from "node:crypto";
import type { Pool } from "pg";
import type { KeyInfo, KeyRecords } from "../../auth/key-records";
import { newKey } from "../../auth/key-store";
import { StoreUnavailableError } from "../../errors";
import type { StoreMetrics } from "../../metrics/server-metrics";
import { isPlaygroundKey } from "../console-sessions";
import type { DatabaseHealth } from "./database-health";
import { DATABASE_NOW_S } from "./database-now";
import type { KeyCache } from "./key-cache";

interface KeyRow {
  id: string;
  name: string;
  prefix: string;
  created: string;
  revoked: string | null;
}

const COLUMNS = "id, name, prefix, created, revoked";

export function keyInfo(row: KeyRow): KeyInfo {
  const info: KeyInfo = { id: row.id, name: row.name, prefix: row.prefix, created: Number(row.created) };
  if (row.revoked !== null) info.revoked = Number(row.revoked);
  return info;
}

export class PgKeys implements KeyRecords {
  constructor(
    private readonly pool: Pool,
    private readonly cache: KeyCache,
    private readonly health: DatabaseHealth,
    private readonly metrics: StoreMetrics,
  ) {}

  async create(name: string): Promise<{ key: KeyInfo; secret: string }> {
    const { stored, secret } = newKey(name);
    const result = await this.pool.query<KeyRow>(`INSERT INTO wisp_api_keys (id, name, prefix, hash, created) VALUES ($1, $2, $3, $4, ${DATABASE_NOW_S}) RETURNING ${COLUMNS}`, [
      stored.id,
      stored.name,
      stored.prefix,
      Buffer.from(stored.hash, "hex"),
    ]);
    return { key: keyInfo(result.rows[0]!), secret };
  }

  async list(): Promise<KeyInfo[]> {
    const result = await this.pool.query<KeyRow>(`SELECT ${COLUMNS} FROM wisp_api_keys ORDER BY created, id`);
    return result.rows.map(keyInfo);
  }

  async revoke(id: string): Promise<boolean> {
    const result = await this.pool.query(`UPDATE wisp_api_keys SET revoked = coalesce(revoked, ${DATABASE_NOW_S}) WHERE id = $1 RETURNING id`, [id]);
    // The trigger tells every replica; this one drops the key now, not when its notification comes.
    this.cache.invalidate(id);
    return result.rowCount === 1;
  }

  claims(secret: string): boolean {
    return !isPlaygroundKey(secret);
  }

  async verify(secret: string): Promise<KeyInfo | undefined> {
    const hash = createHash("sha256").update(secret, "utf8").digest();
    const hex = hash.toString("hex");
    const cached = this.cache.get(hex);
    if (cached) {
      this.metrics.keyCache("hit");
      return cached;
    }
    const since = this.cache.begin();
    if (this.health.up) {
      try {
        this.metrics.keyCache("miss");
        const result = await this.pool.query<KeyRow>(`SELECT ${COLUMNS} FROM wisp_api_keys WHERE hash = $1`, [hash]);
        const row = result.rows[0];
        if (!row || row.revoked !== null) return undefined;
        const key = keyInfo(row);
        this.cache.set(hex, key, since);
        return key;
      } catch (error) {
        if (!this.health.failed(error, "key check")) throw error;
      }
    }
    const stale = this.cache.stale(hex);
    if (stale) {
      this.metrics.keyCache("stale");
      return stale;
    }
    throw new StoreUnavailableError(`the API key could not be checked: the database is ${this.health.condition}; retry in a moment`);
  }
}
