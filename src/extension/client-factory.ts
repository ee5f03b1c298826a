import { WispClient } from "../client/wisp-client";
import type { ApiKeyStore } from "./api-key";
import type { Settings } from "./settings";

/**
 * Builds a client from the current settings and key. A new client per call is cheap and means
 * a changed base URL or key takes effect on the very next request.
 */
export class ClientFactory {
  /** Switches not finished yet; while any is, no client is built. */
  private switching = 0;
  /** Bumped when a switch starts or ends: a key read that spans either may pair the wrong key and URL. */
  private epoch = 0;
  /** Settles when the last switch queued has ended. */
  private idle: Promise<void> = Promise.resolve();

  constructor(private readonly settings: Settings, private readonly keys: ApiKeyStore) {}

  async create(options: { timeoutMs?: number; imageTimeoutMs?: number } = {}): Promise<WispClient> {
    for (;;) {
      if (this.switching > 0) {
        await this.idle;
        continue;
      }
      const epoch = this.epoch;
      // The key for this server (a server may have its own), read after the URL.
      const { baseUrl } = this.settings.value;
      const { key } = await this.keys.resolve(baseUrl);
      if (epoch !== this.epoch || this.switching > 0 || baseUrl !== this.settings.value.baseUrl) continue;
      return new WispClient({ baseUrl, apiKey: key, timeoutMs: options.timeoutMs, imageTimeoutMs: options.imageTimeoutMs });
    }
  }

  /**
   * Writes a new server's base URL and key (`write`) as one change: the key and the URL are two
   * stores, each announcing itself, and a client built between them would send the new key to the
   * old server (or the old key to the new one). Clients asked for meanwhile are built once it ends.
   */
  switchServer(write: () => Promise<void>): Promise<void> {
    this.switching++;
    this.epoch++;
    const run = this.idle.then(write).finally(() => {
      this.switching--;
      this.epoch++;
    });
    this.idle = run.then(() => undefined, () => undefined);
    return run;
  }
}
