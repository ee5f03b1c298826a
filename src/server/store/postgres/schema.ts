// The database's schema: versioned SQL files (migrations/NNN-name.sql, shipped beside the server's
// bundle) applied in order, each in its own transaction and recorded in wisp_schema_migrations.
// Replicas that start together take one advisory lock first, so the schema is migrated once; a
// replica older than the schema it finds refuses to start.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg, { type ClientBase, type Pool, type PoolClient } from "pg";
import { StartupError } from "../../startup-error";

export interface Migration {
  version: number;
  /** The file's name, e.g. 001-initial.sql. */
  file: string;
  sql: string;
}

/** The advisory lock of schema changes and of what one replica does at first start ("wisp"). */
const LOCK = 0x77697370;

/** src/server/store/postgres/migrations/ from the sources, dist/server/migrations/ from the bundle. */
const migrationsDir = (): string => fileURLToPath(new URL("./migrations/", import.meta.url));

/** The migrations this server knows, oldest first. */
export function knownMigrations(dir = migrationsDir()): Migration[] {
  return readdirSync(dir)
    .map((file) => ({ file, match: /^(\d+)-[\w-]+\.sql$/.exec(file) }))
    .filter((f) => f.match !== null)
    .map(({ file, match }) => ({ version: Number(match![1]), file, sql: readFileSync(path.join(dir, file), "utf8") }))
    .sort((a, b) => a.version - b.version);
}

/**
 * Runs `work` on a connection of its own while this process holds the lock (others wait for it).
 * Neither the wait nor the work has a timeout: a replica waits for another's migration however
 * long it takes, and a long migration can apply (the pool's connections cut statements at 10 s).
 */
export async function underLock<T>(pool: Pool, work: (client: ClientBase) => Promise<T>): Promise<T> {
  const client = new pg.Client({ ...pool.options, query_timeout: 0, options: "-c statement_timeout=0" });
  // An error between statements (the database shutting down) fails the next one; unheard, it would end the process.
  client.on("error", () => undefined);
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [LOCK]);
    try {
      return await work(client);
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [LOCK]);
    }
  } finally {
    await client.end();
  }
}

export interface AppliedMigration {
  version: number;
  name: string;
  appliedAt: Date;
}

/** What wisp_schema_migrations says was applied (none when the table is not there yet). */
export async function appliedMigrations(client: Pick<PoolClient, "query">): Promise<AppliedMigration[]> {
  const exists = await client.query("SELECT to_regclass('wisp_schema_migrations') IS NOT NULL AS present");
  if (!exists.rows[0].present) return [];
  const rows = await client.query("SELECT version, name, applied_at FROM wisp_schema_migrations ORDER BY version");
  return rows.rows.map((r: { version: number; name: string; applied_at: Date }) => ({ version: r.version, name: r.name, appliedAt: r.applied_at }));
}

/** Refuses a schema newer than this server's newest migration. */
export function checkNotNewer(applied: readonly AppliedMigration[], known: readonly Migration[]): void {
  const newest = Math.max(0, ...applied.map((m) => m.version));
  const ours = known.at(-1)?.version ?? 0;
  if (newest > ours) {
    throw new StartupError(`the database's schema is at version ${newest}, newer than this wisp-server knows (${ours}): run a newer wisp-server, or point --database at another database`);
  }
}

/**
 * Applies what is missing (the caller holds the lock); returns the files applied now. A failing
 * migration leaves the schema as the one before it.
 */
export async function migrate(client: ClientBase, known = knownMigrations()): Promise<string[]> {
  await client.query(`CREATE TABLE IF NOT EXISTS wisp_schema_migrations (
    version integer PRIMARY KEY,
    name text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
  const applied = await appliedMigrations(client);
  checkNotNewer(applied, known);
  const done = new Set(applied.map((m) => m.version));
  const now: string[] = [];
  for (const migration of known) {
    if (done.has(migration.version)) continue;
    await client.query("BEGIN");
    try {
      await client.query(migration.sql);
      await client.query("INSERT INTO wisp_schema_migrations (version, name) VALUES ($1, $2)", [migration.version, migration.file]);
      await client.query("COMMIT");
    } catch (error) {
      await client.query("ROLLBACK");
      throw new StartupError(`migration ${migration.file} failed: ${(error as Error).message}`);
    }
    now.push(migration.file);
  }
  return now;
}
