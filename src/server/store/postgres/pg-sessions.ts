// The console's sessions, login codes and admin tokens in the database, so that a login made on one
// replica works on every other. Only hashes are kept: a session's own secrets come from its cookie.
// Their times are the database's (set and compared in SQL): a login code made on a replica whose
// clock is minutes ahead is good for its lifetime (2 minutes) on every other, no more and no less.
import { timingSafeEqual } from "node:crypto";
import type { Pool, PoolClient } from "pg";
import type { KeyInfo } from "../../auth/key-records";
import { StoreUnavailableError } from "../../errors";
import { newAdminToken } from "../admin-token-file";
import {
  DEFAULT_SESSION_LIMITS,
  isPlaygroundKey,
  newSecret,
  playgroundKeyInfo,
  sessionSecrets,
  sha256,
  type AdminTokens,
  type ConsoleSession,
  type SessionLimits,
  type SessionRecords,
} from "../console-sessions";
import type { DatabaseHealth } from "./database-health";
import { DATABASE_NOW_MS as NOW } from "./database-now";

interface SessionRow {
  created: string;
  last_seen: string;
}

export class PgSessions implements SessionRecords {
  constructor(
    private readonly pool: Pool,
    private readonly health: DatabaseHealth,
    private readonly limits: SessionLimits = DEFAULT_SESSION_LIMITS,
  ) {}

  /** A query of the console's: while the database is away, a 503 that says so. */
  private async query<Row extends object>(operation: string, text: string, values: unknown[]): Promise<Row[]> {
    try {
      return (await this.pool.query<Row>(text, values)).rows;
    } catch (error) {
      if (this.health.failed(error, operation)) throw new StoreUnavailableError(`the console's sessions are in the database, which is ${this.health.condition}; retry in a moment`);
      throw error;
    }
  }

  /** Ends sessions idle or old beyond the limits, and the oldest beyond the most there may be
   * (by `seq`, the order they were made in: many are made in the same millisecond). */
  private expired(): [string, unknown[]] {
    return [
      `DELETE FROM wisp_console_sessions WHERE last_seen < ${NOW} - $1::bigint OR created < ${NOW} - $2::bigint
         OR id IN (SELECT id FROM wisp_console_sessions ORDER BY seq DESC OFFSET $3)`,
      [this.limits.idleMs, this.limits.maxAgeMs, this.limits.maxSessions],
    ];
  }

  async create(): Promise<{ cookie: string; session: ConsoleSession }> {
    const cookie = newSecret();
    const secrets = sessionSecrets(cookie);
    const [row] = await this.query<SessionRow>(
      "console session",
      `INSERT INTO wisp_console_sessions (id, playground_hash, created, last_seen) VALUES ($1, $2, ${NOW}, ${NOW}) RETURNING created, last_seen`,
      [sha256(cookie), sha256(secrets.playgroundKey)],
    );
    await this.query("console session", ...this.expired());
    return { cookie, session: { ...secrets, created: Number(row!.created), lastSeen: Number(row!.last_seen) } };
  }

  async get(cookie: string | undefined): Promise<ConsoleSession | undefined> {
    if (!cookie) return undefined;
    const [row] = await this.query<SessionRow>(
      "console session",
      `UPDATE wisp_console_sessions SET last_seen = ${NOW}
         WHERE id = $1 AND last_seen >= ${NOW} - $2::bigint AND created >= ${NOW} - $3::bigint RETURNING created, last_seen`,
      [sha256(cookie), this.limits.idleMs, this.limits.maxAgeMs],
    );
    return row && { ...sessionSecrets(cookie), created: Number(row.created), lastSeen: Number(row.last_seen) };
  }

  async delete(cookie: string): Promise<void> {
    await this.query("console session", "DELETE FROM wisp_console_sessions WHERE id = $1", [sha256(cookie)]);
  }

  claims(key: string): boolean {
    return isPlaygroundKey(key);
  }

  async verify(key: string): Promise<KeyInfo | undefined> {
    const [row] = await this.query<SessionRow>(
      "playground key",
      `SELECT created, last_seen FROM wisp_console_sessions WHERE playground_hash = $1 AND last_seen >= ${NOW} - $2::bigint AND created >= ${NOW} - $3::bigint`,
      [sha256(key), this.limits.idleMs, this.limits.maxAgeMs],
    );
    return row && playgroundKeyInfo({ playgroundKey: key, created: Number(row.created) });
  }

  async issueLoginCode(): Promise<string> {
    const code = newSecret();
    await this.query("login code", `DELETE FROM wisp_console_login_codes WHERE expires <= ${NOW}`, []);
    await this.query("login code", `INSERT INTO wisp_console_login_codes (hash, expires) VALUES ($1, ${NOW} + $2::bigint)`, [sha256(code), this.limits.loginCodeMs]);
    return code;
  }

  async redeemLoginCode(code: unknown): Promise<boolean> {
    if (typeof code !== "string" || code === "") return false;
    const [row] = await this.query<{ live: boolean }>("login code", `DELETE FROM wisp_console_login_codes WHERE hash = $1 RETURNING expires > ${NOW} AS live`, [sha256(code)]);
    return row?.live === true;
  }
}

/** The console's admin tokens (their hashes), compared in constant time. */
export class PgAdminTokens implements AdminTokens {
  constructor(
    private readonly pool: Pool,
    private readonly health: DatabaseHealth,
  ) {}

  async verify(candidate: unknown): Promise<boolean> {
    if (typeof candidate !== "string" || candidate === "") return false;
    let hashes: Buffer[];
    try {
      hashes = (await this.pool.query<{ hash: Buffer }>("SELECT hash FROM wisp_admin_tokens")).rows.map((r) => r.hash);
    } catch (error) {
      if (this.health.failed(error, "admin token")) throw new StoreUnavailableError(`the console's admin tokens are in the database, which is ${this.health.condition}; retry in a moment`);
      throw error;
    }
    const digest = sha256(candidate);
    let match = false;
    for (const hash of hashes) if (hash.length === digest.length && timingSafeEqual(hash, digest)) match = true;
    return match;
  }
}

/** Makes the first admin token when there is none (under the first-start lock); returns it, or undefined. */
export async function firstAdminToken(client: Pick<PoolClient, "query">): Promise<string | undefined> {
  const { rows } = await client.query("SELECT count(*)::int AS n FROM wisp_admin_tokens");
  if (rows[0].n > 0) return undefined;
  return addAdminToken(client, false);
}

/**
 * A new admin token; `replace` ends every earlier one (`wisp-server admin-token new`), and the
 * console sessions and login links they opened: a token is replaced because it may have leaked,
 * and these sessions outlive any restart.
 */
export async function addAdminToken(client: Pick<PoolClient, "query">, replace: boolean): Promise<string> {
  const token = newAdminToken();
  if (replace) {
    await client.query("DELETE FROM wisp_admin_tokens");
    await client.query("DELETE FROM wisp_console_sessions");
    await client.query("DELETE FROM wisp_console_login_codes");
  }
  await client.query(`INSERT INTO wisp_admin_tokens (hash, created) VALUES ($1, ${NOW})`, [sha256(token)]);
  return token;
}
