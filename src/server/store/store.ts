// Where a server keeps what must outlive a request: API keys, console sessions and admin tokens,
// usage records and rate-limit windows. One interface, two stores: files and this process's memory
// (one server, as always: store/file-store.ts), or a PostgreSQL database that any number of
// replicas share (store/postgres/). Routes and hooks get these parts from deps, never a driver.
import type { UsageBucket } from "../../core/usage/usage-rollup";
import type { KeyInfo, KeyRecords } from "../auth/key-records";
import type { DatabaseGauges } from "../metrics/server-metrics";
import type { RateWindows } from "../usage/rate-limiter";
import type { UsageSink } from "../usage/usage-recorder";
import type { AdminTokens, SessionRecords } from "./console-sessions";

export interface UsageRecords extends UsageSink {
  /** Hourly counts from `since` (ms) on, oldest first, whichever replica served them. */
  buckets(since: number): Promise<UsageBucket[]>;
  /** The last request of each of `keys` that has one, ms since the epoch. */
  lastUsed(keys: readonly string[]): Promise<Record<string, number>>;
  /** Records taken and not stored yet (kept while the database is away). */
  pending(): number;
  /** Whether that buffer is full: new requests are then refused rather than left uncounted. */
  full(): boolean;
}

/** Whether the store can serve now, and if not why (/ready says it). */
export interface StoreStatus {
  ok: boolean;
  reason?: string;
}

export interface Store {
  readonly kind: "files" | "postgres";
  /** Where the state lives, for the start-up lines (a database's password is never in it). */
  readonly description: string;
  readonly keys: KeyRecords;
  readonly sessions: SessionRecords;
  readonly admin: AdminTokens;
  readonly usage: UsageRecords;
  readonly limits: RateWindows;
  /**
   * The console's admin token, where this process may show it: always from DATA/admin-token;
   * from a database only by the replica that made it (only its hash is kept there).
   */
  readonly adminToken: string | undefined;
  /** Makes a key named `name` when no key is active (one replica does, under a lock); else undefined. */
  ensureKey(name: string): Promise<{ key: KeyInfo; secret: string } | undefined>;
  status(): StoreStatus;
  /** The database's state for GET /metrics (undefined: files). */
  gauges?(): DatabaseGauges;
  /** Stores what is buffered, waiting at most `timeoutMs`; resolves with how many records are still not stored. */
  flush(timeoutMs: number): Promise<number>;
  close(): Promise<void>;
}
