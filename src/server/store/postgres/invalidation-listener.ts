// A connection of its own that LISTENs for key changes (the database's trigger NOTIFYs on every
// update or deletion of a key) and drops them from this replica's cache. When the connection is
// lost it reconnects with a growing pause; the cache is exact again only once it listens again.
// A connection can also die without a word (a failover, a NAT's idle timeout: no FIN, no RST),
// and then no error or end ever comes: it is asked a query every `heartbeatMs`, and one that
// does not answer within as long is dropped like a lost one. The heartbeat also asks which table
// holds the keys: a backup restored (pg_restore --clean drops the table and makes it again, firing
// no trigger) makes another, and the cache, whose keys the backup may not hold, is emptied.
import pg from "pg";
import type { KeyCache } from "./key-cache";

export const KEY_CHANNEL = "wisp_key_changes";

/** How long a polite end (Terminate) may take before the socket is destroyed: a dead path never answers. */
const END_MS = 1_000;

export class InvalidationListener {
  private client: pg.Client | undefined;
  private closed = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private heartbeat: ReturnType<typeof setTimeout> | undefined;
  private pauseMs = 100;
  /** The keys table's oid as last seen (null: not there). */
  private keysTable: number | null = null;

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly cache: KeyCache,
    private readonly onError: (error: unknown) => void,
    private readonly heartbeatMs = 5_000,
  ) {}

  /** Connects and listens; rejects if the first attempt fails (start-up reports it). */
  async start(): Promise<void> {
    await this.connect();
  }

  private async connect(): Promise<void> {
    const client = new pg.Client(this.config);
    client.on("error", (error) => this.drop(client, error));
    client.on("end", () => this.drop(client, undefined));
    client.on("notification", (message) => {
      if (message.channel === KEY_CHANNEL) this.cache.invalidate(message.payload ?? "*");
    });
    this.client = client;
    await client.connect();
    await client.query(`LISTEN ${KEY_CHANNEL}`);
    this.keysTable = await keysTable(client);
    this.pauseMs = 100;
    this.cache.listen();
    this.beat(client);
  }

  /** Asks the connection to answer in `heartbeatMs`, again and again while it is the one listening. */
  private beat(client: pg.Client): void {
    this.heartbeat = setTimeout(() => {
      let timeout: ReturnType<typeof setTimeout> | undefined;
      const silent = new Promise<never>((_, reject) => {
        timeout = setTimeout(() => reject(new Error(`the key listener's connection did not answer within ${this.heartbeatMs} ms`)), this.heartbeatMs);
      });
      Promise.race([keysTable(client), silent]).then(
        (table) => {
          clearTimeout(timeout);
          if (client !== this.client) return;
          if (table !== this.keysTable) this.cache.invalidate("*");
          this.keysTable = table;
          this.beat(client);
        },
        (error: unknown) => {
          clearTimeout(timeout);
          this.drop(client, error);
        },
      );
    }, this.heartbeatMs);
    this.heartbeat.unref();
  }

  private drop(client: pg.Client, error: unknown): void {
    if (client !== this.client) return;
    this.client = undefined;
    clearTimeout(this.heartbeat);
    this.cache.lost();
    if (error !== undefined) this.onError(error);
    void finish(client);
    this.retry();
  }

  private retry(): void {
    if (this.closed || this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.connect().catch((error: unknown) => {
        const client = this.client;
        if (client) this.drop(client, error);
        else this.retry();
      });
      this.pauseMs = Math.min(this.pauseMs * 2, 2_000);
    }, this.pauseMs);
    this.timer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    clearTimeout(this.heartbeat);
    const client = this.client;
    this.client = undefined;
    if (client) await finish(client);
  }
}

/** The oid of the table keys are in: another one after a restore. */
async function keysTable(client: pg.Client): Promise<number | null> {
  const { rows } = await client.query<{ oid: number | null }>("SELECT to_regclass('wisp_api_keys')::oid AS oid");
  return rows[0]?.oid ?? null;
}

/** Ends a connection politely if it answers, else destroys its socket (never waits on a dead path). */
async function finish(client: pg.Client): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const ended = await Promise.race([client.end().then(() => true, () => true), new Promise<boolean>((done) => (timer = setTimeout(() => done(false), END_MS)))]);
  clearTimeout(timer);
  if (!ended) client.connection.stream.destroy();
}
