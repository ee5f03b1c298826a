// A connection of its own that LISTENs for key changes (the database's trigger NOTIFYs on every
// update or deletion of a key) and drops them from this replica's cache. When the connection is
// lost it reconnects with a growing pause; the cache is exact again only once it listens again.
import pg from "pg";
import type { KeyCache } from "./key-cache";

export const KEY_CHANNEL = "wisp_key_changes";

export class InvalidationListener {
  private client: pg.Client | undefined;
  private closed = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private pauseMs = 100;

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly cache: KeyCache,
    private readonly onError: (error: unknown) => void,
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
    this.pauseMs = 100;
    this.cache.listen();
  }

  private drop(client: pg.Client, error: unknown): void {
    if (client !== this.client) return;
    this.client = undefined;
    this.cache.lost();
    if (error !== undefined) this.onError(error);
    void client.end().catch(() => undefined);
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
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}
