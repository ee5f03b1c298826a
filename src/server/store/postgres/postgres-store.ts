// The store replicas share: PostgreSQL through node-postgres' pool. At start the schema is
// migrated and the first admin token made under one advisory lock (replicas starting together do
// it once), and a connection of its own listens for key changes.
import pg from "pg";
import type { KeyInfo } from "../../auth/key-records";
import type { DatabaseGauges, PoolGauges, StoreMetrics } from "../../metrics/server-metrics";
import type { RateLimit } from "../../upstreams/upstream-config";
import { DEFAULT_SESSION_LIMITS } from "../console-sessions";
import type { Store, StoreStatus } from "../store";
import { DatabaseHealth } from "./database-health";
import { parseDatabaseUrl, type DatabaseUrl } from "./database-url";
import { InvalidationListener } from "./invalidation-listener";
import { KeyCache } from "./key-cache";
import { startupFailure } from "./pg-errors";
import { PgKeys } from "./pg-keys";
import { PgRateWindows } from "./pg-rate-windows";
import { firstAdminToken, PgAdminTokens, PgSessions } from "./pg-sessions";
import { PgUsage } from "./pg-usage";
import { pruneUsage } from "./usage-prune";
import { knownMigrations, migrate, underLock } from "./schema";

export interface PostgresStoreOptions {
  url: string;
  rateLimit: RateLimit;
  databasePoolSize: number;
  keyCacheGraceMs: number;
  keyCacheMaxAgeMs: number;
  keyListenerHeartbeatMs: number;
  usageQueueMax: number;
  loginCodeMs: number;
  log: (message: string) => void;
  metrics: StoreMetrics;
  /** When the first usage prune runs (default: 1 to 5 minutes after start); then every hour. */
  firstPruneMs?: number;
}

/** Per-request usage rows older than this are deleted (the hourly counts stay): the console shows 30 days. */
const EVENT_RETENTION_MS = 35 * 24 * 3_600_000;

/**
 * How every connection of a replica is made: bounded waits, so an unreachable database fails fast;
 * TCP keepalive, so the system ends a connection whose path died without a word. Statements are
 * cut by the server after 10 s (statement_timeout: the connection stays usable); the client's own
 * timeout, later, is for a server that no longer answers at all.
 */
export function connectionConfig(url: DatabaseUrl): pg.ClientConfig {
  return {
    connectionString: url.connectionString,
    application_name: "wisp-server",
    connectionTimeoutMillis: 5_000,
    options: "-c statement_timeout=10000",
    query_timeout: 30_000,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  };
}

/**
 * A pool whose idle connections' errors (the database restarting) are reported, not thrown.
 * `asyncCommit`: its commits do not wait for the write-ahead log to reach the disk (a database
 * crash may lose the last fraction of a second of them): for rate-limit windows, which are on the
 * request's path and need no durability.
 */
export function openPool(url: DatabaseUrl, max: number, onIdleError: (error: Error) => void, asyncCommit = false): pg.Pool {
  const config = connectionConfig(url);
  const pool = new pg.Pool({ ...config, max, idleTimeoutMillis: 30_000, ...(asyncCommit ? { options: `${config.options} -c synchronous_commit=off` } : {}) });
  pool.on("error", onIdleError);
  return pool;
}

const poolGauges = (pool: pg.Pool): PoolGauges => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });

export class PostgresStore implements Store {
  readonly kind = "postgres";
  readonly description: string;
  readonly keys: PgKeys;
  readonly sessions: PgSessions;
  readonly admin: PgAdminTokens;
  readonly usage: PgUsage;
  readonly limits: PgRateWindows;
  private prune: ReturnType<typeof setTimeout>;

  private constructor(
    url: DatabaseUrl,
    private readonly pool: pg.Pool,
    private readonly admissions: pg.Pool,
    private readonly health: DatabaseHealth,
    private readonly cache: KeyCache,
    private readonly listener: InvalidationListener,
    readonly adminToken: string | undefined,
    options: PostgresStoreOptions,
  ) {
    this.description = `keys, console sessions, usage records and rate limits in the database ${url.redacted}`;
    this.keys = new PgKeys(pool, cache, health, options.metrics);
    this.sessions = new PgSessions(pool, health, { ...DEFAULT_SESSION_LIMITS, loginCodeMs: options.loginCodeMs });
    this.admin = new PgAdminTokens(pool, health);
    this.usage = new PgUsage(pool, health, options.usageQueueMax, options.log, options.metrics);
    this.limits = new PgRateWindows(admissions, health, options.rateLimit);
    // Not an hour after start only: replicas restarted more often than that (deploys, autoscaling)
    // would never prune. Spread, so that replicas started together do not all try at once.
    const run = () => {
      if (health.up) pruneUsage(pool, Date.now() - EVENT_RETENTION_MS).catch((error: unknown) => health.failed(error, "usage prune"));
      this.prune = setTimeout(run, 3_600_000).unref();
    };
    this.prune = setTimeout(run, options.firstPruneMs ?? 60_000 + Math.random() * 240_000).unref();
  }

  static async open(options: PostgresStoreOptions): Promise<PostgresStore> {
    const url = parseDatabaseUrl(options.url);
    const { log, metrics } = options;
    const health = new DatabaseHealth(() => pool.query("SELECT 1"), metrics, log);
    const pool = openPool(url, options.databasePoolSize, (error) => health.failed(error, "idle connection"));
    // Admissions wait for no disk: a rate-limit window lost in a database crash costs nothing.
    const admissions = openPool(url, Math.max(2, Math.ceil(options.databasePoolSize / 2)), (error) => health.failed(error, "idle connection"), true);
    const cache = new KeyCache(options.keyCacheGraceMs, { maxAgeMs: options.keyCacheMaxAgeMs });
    const listener = new InvalidationListener(connectionConfig(url), cache, (error) => health.failed(error, "key listener"), options.keyListenerHeartbeatMs);
    let started: { applied: string[]; adminToken: string | undefined };
    try {
      started = await underLock(pool, async (client) => ({ applied: await migrate(client), adminToken: await firstAdminToken(client) }));
      await listener.start();
    } catch (error) {
      await listener.close();
      health.close();
      await Promise.all([pool.end().catch(() => undefined), admissions.end().catch(() => undefined)]);
      throw startupFailure(error, url);
    }
    const version = knownMigrations().at(-1)?.version ?? 0;
    log(`database ${url.redacted}: schema version ${version}${started.applied.length > 0 ? ` (applied ${started.applied.join(", ")})` : ""}`);
    return new PostgresStore(url, pool, admissions, health, cache, listener, started.adminToken, options);
  }

  ensureKey(name: string): Promise<{ key: KeyInfo; secret: string } | undefined> {
    // Under the lock: replicas starting together on an empty database make one key, not one each.
    // Only a database that never had a key gets one: a team whose keys were all revoked (a leak)
    // must not find a new one working, its secret in a replica's journal, after the next restart.
    return underLock(this.pool, async (client) => {
      const { rows } = await client.query("SELECT EXISTS (SELECT 1 FROM wisp_api_keys) AS any");
      return rows[0].any ? undefined : this.keys.create(name);
    });
  }

  status(): StoreStatus {
    return this.health.up ? { ok: true } : { ok: false, reason: `database unavailable (${this.health.lastError ?? "no answer"})` };
  }

  gauges(): DatabaseGauges {
    return {
      up: this.health.up,
      pools: { main: poolGauges(this.pool), admissions: poolGauges(this.admissions) },
      usageQueue: this.usage.pending(),
      keyCacheEntries: this.cache.size,
    };
  }

  flush(timeoutMs: number): Promise<number> {
    return this.usage.flush(timeoutMs);
  }

  async close(): Promise<void> {
    clearTimeout(this.prune);
    this.usage.close();
    this.health.close();
    await this.listener.close();
    await Promise.all([this.pool.end().catch(() => undefined), this.admissions.end().catch(() => undefined)]);
  }
}
