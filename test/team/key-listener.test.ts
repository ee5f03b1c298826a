import assert from "node:assert/strict";
import { DatabaseHealth } from "../../src/server/store/postgres/database-health";
import { parseDatabaseUrl } from "../../src/server/store/postgres/database-url";
import { InvalidationListener } from "../../src/server/store/postgres/invalidation-listener";
import { KeyCache } from "../../src/server/store/postgres/key-cache";
import { PgKeys } from "../../src/server/store/postgres/pg-keys";
import { connectionConfig, openPool } from "../../src/server/store/postgres/postgres-store";
import { migrate, underLock } from "../../src/server/store/postgres/schema";
import { startFreezableProxy } from "../harness/freezable-proxy";
import { waitFor } from "../harness/wait-for";
import { freshDatabase } from "./support/shared-cluster";

describe("a replica whose key listener's connection dies without a word", function () {
  this.timeout(120_000);

  it("refuses a key revoked elsewhere within two heartbeats of the listener's TCP path freezing", async () => {
    const { cluster, name, url } = await freshDatabase();
    const results: string[] = [];
    const metrics = { databaseError: () => undefined, keyCache: (result: string) => void results.push(result), usageRejected: () => undefined };
    const pool = openPool(parseDatabaseUrl(url), 2, () => undefined);
    const health = new DatabaseHealth(() => pool.query("SELECT 1"), metrics, () => undefined);
    // Only the listening connection goes through the proxy: the pool reaches the database as before.
    const proxy = await startFreezableProxy(cluster.port);
    const cache = new KeyCache(60_000);
    const heartbeatMs = 500;
    const listener = new InvalidationListener(connectionConfig(parseDatabaseUrl(url.replace(`:${cluster.port}/`, `:${proxy.port}/`))), cache, () => undefined, heartbeatMs);
    try {
      await underLock(pool, (client) => migrate(client));
      await listener.start();
      const keys = new PgKeys(pool, cache, health, metrics);
      const { key, secret } = await keys.create("alice");
      assert.equal((await keys.verify(secret))?.id, key.id);
      assert.equal((await keys.verify(secret))?.id, key.id);
      assert.deepEqual(results, ["miss", "hit"], "the key is in this replica's cache");

      proxy.freeze();
      // Revoked by another replica: its notification never comes through the frozen path.
      await cluster.query("UPDATE wisp_api_keys SET revoked = 1 WHERE id = $1", [key.id], name);
      const frozenAt = Date.now();
      await waitFor("the revoked key refused", () => keys.verify(secret), (k) => k === undefined, 2 * heartbeatMs + 2_000);
      const refusedAfter = Date.now() - frozenAt;
      assert.ok(refusedAfter <= 2 * heartbeatMs + 2_000, `refused after ${refusedAfter} ms`);
      assert.ok(health.up, "the database itself stayed up");
    } finally {
      await listener.close();
      await proxy.close();
      health.close();
      await pool.end();
    }
  });
});
