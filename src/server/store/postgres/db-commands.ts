// `wisp-server db migrate|status|import`, `keys ... --database` and `admin-token new --database`:
// one short-lived connection pool each, never a listener or a cache.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type pg from "pg";
import type { KeyRecords } from "../../auth/key-records";
import type { StoredKey } from "../../auth/key-store";
import { UsageLog } from "../../usage/usage-log";
import { adminTokenFile } from "../admin-token-file";
import { sha256 } from "../console-sessions";
import { DatabaseHealth } from "./database-health";
import { DATABASE_NOW_MS } from "./database-now";
import { parseDatabaseUrl, type DatabaseUrl } from "./database-url";
import { KeyCache } from "./key-cache";
import { startupFailure } from "./pg-errors";
import { PgKeys } from "./pg-keys";
import { addAdminToken } from "./pg-sessions";
import { INSERT_USAGE, insertValues, type UsageRow } from "./pg-usage";
import { withPoolClient } from "./pool-client";
import { openPool } from "./postgres-store";
import { appliedMigrations, knownMigrations, migrate, underLock } from "./schema";

type Print = (line: string) => void;

const ignore = () => undefined;
const noMetrics = { databaseError: ignore, keyCache: ignore, usageRejected: ignore };

/** Runs `work` on a pool of the database; connection failures are one line naming it (never its password). */
async function withPool<T>(database: string, work: (pool: pg.Pool, url: DatabaseUrl) => Promise<T>): Promise<T> {
  const url = parseDatabaseUrl(database);
  const pool = openPool(url, 2, ignore);
  try {
    return await work(pool, url);
  } catch (error) {
    throw startupFailure(error, url);
  } finally {
    await pool.end().catch(ignore);
  }
}

/** The same as a server at start: the schema brought up to date under the lock (a newer one refused). */
const upToDate = (pool: pg.Pool) => underLock(pool, (client) => migrate(client));

export function dbMigrate(database: string, print: Print): Promise<void> {
  return withPool(database, async (pool, url) => {
    const applied = await upToDate(pool);
    const version = knownMigrations().at(-1)?.version ?? 0;
    for (const file of applied) print(`applied ${file}`);
    print(`${url.redacted}: schema version ${version}${applied.length === 0 ? ", up to date" : ""}`);
  });
}

export function dbStatus(database: string, print: Print): Promise<void> {
  return withPool(database, async (pool, url) => {
    const server = (await pool.query("SHOW server_version")).rows[0].server_version as string;
    print(`database ${url.redacted} (PostgreSQL ${server})`);
    const known = knownMigrations();
    const applied = await appliedMigrations(pool);
    const version = Math.max(0, ...applied.map((m) => m.version));
    const ours = known.at(-1)?.version ?? 0;
    const pending = known.filter((m) => !applied.some((a) => a.version === m.version)).map((m) => m.file);
    if (version > ours) print(`schema version ${version}: newer than this wisp-server knows (${ours}); run a newer wisp-server`);
    else if (pending.length > 0) print(`schema version ${version} of ${ours}: to apply ${pending.join(", ")} (wisp-server db migrate, or start a replica)`);
    else print(`schema version ${version} of ${ours}: up to date (last applied ${applied.at(-1)?.appliedAt.toISOString() ?? "never"})`);
    if (pending.length > 0 || version > ours) return;
    const count = async (sql: string) => Number((await pool.query(sql)).rows[0].n);
    print(`keys: ${await count("SELECT count(*) AS n FROM wisp_api_keys WHERE revoked IS NULL")} active, ${await count("SELECT count(*) AS n FROM wisp_api_keys WHERE revoked IS NOT NULL")} revoked`);
    const usage = (await pool.query("SELECT coalesce(sum(requests), 0) AS n, max(t) AS last FROM wisp_usage_events")).rows[0];
    print(`usage: ${Number(usage.n)} requests in the per-request records${usage.last === null ? "" : `, the last at ${new Date(Number(usage.last)).toISOString()}`}`);
    print(`console: ${await count("SELECT count(*) AS n FROM wisp_admin_tokens")} admin tokens, ${await count("SELECT count(*) AS n FROM wisp_console_sessions")} sessions`);
    print(`connections now: ${await count("SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'wisp-server'")} from wisp-server`);
  });
}

/** A UUID made from `text` (the same text, the same id): imported hours are stored once however often the import runs. */
function uuidOf(text: string): string {
  const b = createHash("sha256").update(text, "utf8").digest();
  b[6] = (b[6]! & 0x0f) | 0x50;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = b.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const counted = ["requests", "errors", "prompt_tokens", "completion_tokens", "images"] as const;

/**
 * Stores the imported hours not imported before, and what the file server counted since in those
 * it imported before (under a new id, so a run again adds it once); how many of each. Each hour's
 * id and the counts imported for it are kept in wisp_usage_imports, never pruned: the event rows
 * are, and their ids alone would let a later import count them again.
 */
function importUsage(pool: pg.Pool, rows: readonly UsageRow[]): Promise<{ added: number; updated: number }> {
  // A failed connection is closed (withPoolClient), which rolls its transaction back.
  return withPoolClient(pool, async (client) => {
    await client.query("BEGIN");
    const fresh = await client.query<{ id: string }>(
      `INSERT INTO wisp_usage_imports (id, ${counted.join(", ")}) SELECT * FROM unnest($1::uuid[], $2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[]) ON CONFLICT DO NOTHING RETURNING id`,
      [rows.map((r) => r.id), ...counted.map((c) => rows.map((r) => r[c]))],
    );
    const freshIds = new Set(fresh.rows.map((r) => r.id));
    // Locked: two imports at once add what is new once.
    const earlier = await client.query<Record<(typeof counted)[number], string | null> & { id: string }>(
      `SELECT id, ${counted.join(", ")} FROM wisp_usage_imports WHERE id = ANY($1::uuid[]) AND NOT id = ANY($2::uuid[]) FOR UPDATE`,
      [rows.map((r) => r.id), [...freshIds]],
    );
    const events = rows.filter((r) => freshIds.has(r.id));
    const raised: UsageRow[] = [];
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const before of earlier.rows) {
      const row = byId.get(before.id)!;
      // Imported before its counts were kept (long past), or counted anew since (fewer now): nothing to add.
      if (before.requests === null) continue;
      const more = counted.map((c) => row[c] - Number(before[c]));
      if (more.some((n) => n < 0) || more.every((n) => n === 0)) continue;
      raised.push(row);
      const since = Object.fromEntries(counted.map((c, i) => [c, more[i]!]));
      events.push({ ...row, ...since, id: uuidOf(`${row.id}:${counted.map((c) => row[c]).join(":")}`) });
    }
    if (raised.length > 0) {
      await client.query(
        `UPDATE wisp_usage_imports i SET ${counted.map((c) => `${c} = u.${c}`).join(", ")}
         FROM unnest($1::uuid[], $2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[]) AS u(id, ${counted.join(", ")}) WHERE i.id = u.id`,
        [raised.map((r) => r.id), ...counted.map((c) => raised.map((r) => r[c]))],
      );
    }
    if (events.length > 0) await client.query(INSERT_USAGE, insertValues(events));
    await client.query("COMMIT");
    return { added: freshIds.size, updated: raised.length };
  });
}

/** Brings a file-based server's keys.json, usage counts and admin token in; a run again adds only what changed since (revocations, counts). */
export function dbImport(database: string, dataDir: string, print: Print): Promise<void> {
  return withPool(database, async (pool) => {
    await upToDate(pool);
    const keysFile = path.join(dataDir, "keys.json");
    const keys = existsSync(keysFile) ? (JSON.parse(readFileSync(keysFile, "utf8")) as { keys: StoredKey[] }).keys : [];
    let keysAdded = 0;
    let keysRevoked = 0;
    for (const k of keys) {
      // A key revoked on the file server since an earlier import is revoked here too (never the reverse).
      const result = await pool.query<{ inserted: boolean }>(
        `INSERT INTO wisp_api_keys AS k (id, name, prefix, hash, created, revoked) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (id) DO UPDATE SET revoked = excluded.revoked WHERE k.revoked IS NULL AND excluded.revoked IS NOT NULL
         RETURNING xmax = 0 AS inserted`,
        [k.id, k.name, k.prefix, Buffer.from(k.hash, "hex"), k.created, k.revoked ?? null],
      );
      const row = result.rows[0];
      if (row?.inserted) keysAdded++;
      else if (row) keysRevoked++;
    }
    const revokedNote = keysRevoked > 0 ? `, ${keysRevoked} revoked as in the file` : "";
    print(`keys: ${keysAdded} imported${revokedNote}, ${keys.length - keysAdded - keysRevoked} already there (from ${keysFile})`);
    const rollup = await UsageLog.read(dataDir, { log: print });
    const { buckets, lastUsed } = rollup.snapshot();
    const rows: UsageRow[] = buckets.map((b) => ({
      id: uuidOf(`wisp-import:${b.hour}:${b.key}:${b.model}`),
      t: b.hour,
      age: 0,
      key: b.key,
      model: b.model === "" ? null : b.model,
      status: 200,
      requests: b.requests,
      errors: b.errors,
      prompt_tokens: b.prompt_tokens,
      completion_tokens: b.completion_tokens,
      images: b.images,
      replica: "import",
    }));
    let hoursAdded = 0;
    let hoursUpdated = 0;
    for (let i = 0; i < rows.length; i += 500) {
      const { added, updated } = await importUsage(pool, rows.slice(i, i + 500));
      hoursAdded += added;
      hoursUpdated += updated;
    }
    for (const [key, t] of Object.entries(lastUsed)) {
      await pool.query("INSERT INTO wisp_key_last_used AS l (key, t) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET t = greatest(l.t, excluded.t)", [key, t]);
    }
    const requests = buckets.reduce((sum, b) => sum + b.requests, 0);
    const updatedNote = hoursUpdated > 0 ? `, ${hoursUpdated} brought up to date` : "";
    print(`usage: ${hoursAdded} hourly counts imported${updatedNote}, ${rows.length - hoursAdded - hoursUpdated} already there (${requests} requests, from ${path.join(dataDir, "usage")})`);
    const tokenFile = adminTokenFile(dataDir);
    if (existsSync(tokenFile)) {
      const added = await pool.query(`INSERT INTO wisp_admin_tokens (hash, created) VALUES ($1, ${DATABASE_NOW_MS}) ON CONFLICT DO NOTHING`, [sha256(readFileSync(tokenFile, "utf8").trim())]);
      print(`console admin token: ${added.rowCount === 1 ? "imported (its login links keep working)" : "already there"}`);
    }
  });
}

/** The database's keys for `wisp-server keys ...`; close() when done. */
export async function databaseKeys(database: string): Promise<{ keys: KeyRecords; where: string; close(): Promise<void> }> {
  const url = parseDatabaseUrl(database);
  const pool = openPool(url, 2, ignore);
  try {
    await upToDate(pool);
    await pool.query("SELECT 1 FROM wisp_api_keys LIMIT 1");
  } catch (error) {
    await pool.end().catch(ignore);
    throw startupFailure(error, url);
  }
  const health = new DatabaseHealth(() => pool.query("SELECT 1"), noMetrics, ignore);
  // Never listening, so it never caches: every check asks the database.
  const keys = new PgKeys(pool, new KeyCache(0), health, noMetrics);
  return { keys, where: `the database ${url.redacted}`, close: async () => (health.close(), await pool.end().catch(ignore)) };
}

/** A new admin token in place of every earlier one. */
export function newDatabaseAdminToken(database: string): Promise<string> {
  return withPool(database, async (pool) => {
    await upToDate(pool);
    return underLock(pool, async (client) => {
      await client.query("BEGIN");
      const token = await addAdminToken(client, true);
      await client.query("COMMIT");
      return token;
    });
  });
}
