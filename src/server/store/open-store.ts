// Opens the store the configuration asks for: files, unless a database is named. The database's
// driver is loaded only then, so a server without one never touches it.
import type { StoreMetrics } from "../metrics/server-metrics";
import type { RateLimit } from "../upstreams/upstream-config";
import { FileStore } from "./file-store";
import type { Store } from "./store";

/** What opening a store takes (the server's configuration has these fields). */
export interface StoreOptions {
  dataDir: string;
  rateLimit: RateLimit;
  /** A postgres:// URL; undefined: files in dataDir. */
  database?: string;
  databasePoolSize: number;
  keyCacheGraceMs: number;
  keyCacheMaxAgeMs: number;
  keyListenerHeartbeatMs: number;
  usageQueueMax: number;
  loginCodeMs: number;
  log: (message: string) => void;
  metrics: StoreMetrics;
}

export async function openStore(options: StoreOptions): Promise<Store> {
  if (options.database === undefined) return FileStore.open(options);
  const { PostgresStore } = await import("./postgres/postgres-store");
  return PostgresStore.open({ ...options, url: options.database });
}
