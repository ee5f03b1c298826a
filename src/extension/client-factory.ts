import { WispClient } from "../client/wisp-client";
import type { ApiKeyStore } from "./api-key";
import type { Settings } from "./settings";

/**
 * Builds a client from the current settings and key. A new client per call is cheap and means
 * a changed base URL or key takes effect on the very next request.
 */
export class ClientFactory {
  constructor(private readonly settings: Settings, private readonly keys: ApiKeyStore) {}

  async create(options: { timeoutMs?: number; imageTimeoutMs?: number } = {}): Promise<WispClient> {
    const { key } = await this.keys.resolve();
    return new WispClient({ baseUrl: this.settings.value.baseUrl, apiKey: key, timeoutMs: options.timeoutMs, imageTimeoutMs: options.imageTimeoutMs });
  }
}
