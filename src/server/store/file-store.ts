// The store of a single server: keys in DATA/keys.json, usage in DATA/usage/, the console's admin
// token in DATA/admin-token, and sessions and rate-limit windows in this process's memory.
import { KeyStore } from "../auth/key-store";
import { RateLimiter } from "../usage/rate-limiter";
import type { RateLimit } from "../upstreams/upstream-config";
import { UsageLog } from "../usage/usage-log";
import type { RecordedUsage } from "../usage/usage-recorder";
import { AdminToken } from "./admin-token-file";
import { SessionStore } from "./memory-sessions";
import type { Store, StoreStatus, UsageRecords } from "./store";

export interface FileStoreOptions {
  dataDir: string;
  rateLimit: RateLimit;
  /** How long a console login link is good, ms. */
  loginCodeMs: number;
  log?: (message: string) => void;
}

export class FileStore implements Store {
  readonly kind = "files";
  readonly description: string;
  readonly keys: KeyStore;
  readonly sessions: SessionStore;
  readonly limits: RateLimiter;
  readonly usage: UsageRecords;

  private constructor(
    options: FileStoreOptions,
    private readonly usageLog: UsageLog,
    readonly admin: AdminToken,
    readonly adminToken: string,
  ) {
    this.keys = new KeyStore(options.dataDir);
    this.limits = new RateLimiter(options.rateLimit);
    this.sessions = new SessionStore({ loginCodeMs: options.loginCodeMs });
    this.description = `keys in ${this.keys.file}; usage records in ${usageLog.dir}; console admin token in ${admin.file}`;
    this.usage = {
      record: (recorded: RecordedUsage) => {
        // The log's lines stay as they were: the request id is for the database's exactly-once.
        const { id: _id, ...event } = recorded;
        usageLog.record(event);
        return Promise.resolve();
      },
      buckets: async (since) => usageLog.buckets(since),
      lastUsed: async (keys) => Object.fromEntries(keys.flatMap((k) => (usageLog.lastUsed(k) === undefined ? [] : [[k, usageLog.lastUsed(k)!]]))),
      pending: () => 0,
      full: () => false,
    };
  }

  static async open(options: FileStoreOptions): Promise<FileStore> {
    // First: it locks the data folder, so a second server on it stops here.
    const usageLog = await UsageLog.open(options.dataDir, { log: options.log });
    try {
      const { admin, token } = await AdminToken.loadOrCreate(options.dataDir, options.log);
      return new FileStore(options, usageLog, admin, token);
    } catch (error) {
      await usageLog.close();
      throw error;
    }
  }

  async ensureKey(name: string) {
    if (!(await this.keys.list()).every((k) => k.revoked)) return undefined;
    return this.keys.create(name);
  }

  status(): StoreStatus {
    return { ok: true };
  }

  async flush(): Promise<number> {
    await this.usageLog.flush();
    return 0;
  }

  close(): Promise<void> {
    return this.usageLog.close();
  }
}
