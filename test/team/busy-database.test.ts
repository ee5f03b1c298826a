import assert from "node:assert/strict";
import { StoreUnavailableError } from "../../src/server/errors";
import { DatabaseHealth } from "../../src/server/store/postgres/database-health";
import { parseDatabaseUrl } from "../../src/server/store/postgres/database-url";
import { InvalidationListener } from "../../src/server/store/postgres/invalidation-listener";
import { KeyCache } from "../../src/server/store/postgres/key-cache";
import { PgKeys } from "../../src/server/store/postgres/pg-keys";
import { connectionConfig, openPool } from "../../src/server/store/postgres/postgres-store";
import { migrate, underLock } from "../../src/server/store/postgres/schema";
import { pruneUsage } from "../../src/server/store/postgres/usage-prune";
import { freshDatabase } from "./support/shared-cluster";

const metrics = { databaseError: () => undefined, keyCache: () => undefined, usageRejected: () => undefined };

describe("a replica whose own pool is busy", function () {
  this.timeout(120_000);

  it("keeps the database marked up (what /ready reports) when a query times out waiting for a free connection: cached keys work, an unchecked one gets a 503 that says busy", async () => {
    const { url } = await freshDatabase();
    const pool = openPool(parseDatabaseUrl(url), 1, () => undefined);
    const lines: string[] = [];
    const health = new DatabaseHealth(() => pool.query("SELECT 1"), metrics, (line) => lines.push(line));
    const cache = new KeyCache(60_000);
    const listener = new InvalidationListener(connectionConfig(parseDatabaseUrl(url)), cache, () => undefined);
    try {
      await underLock(pool, (client) => migrate(client));
      await listener.start();
      const keys = new PgKeys(pool, cache, health, metrics);
      const checked = await keys.create("checked");
      const unchecked = await keys.create("unchecked");
      assert.equal((await keys.verify(checked.secret))?.id, checked.key.id);
      // The one connection is busy (a burst): the next query waits for it, and gives up.
      const held = await pool.connect();
      try {
        await assert.rejects(keys.verify(unchecked.secret), (error: Error) => error instanceof StoreUnavailableError && /the database is busy/.test(error.message));
        assert.ok(health.up, `the database is not marked down: ${lines.join("; ")}`);
        assert.equal((await keys.verify(checked.secret))?.id, checked.key.id, "the cached key works all along");
      } finally {
        held.release();
      }
      assert.equal((await keys.verify(unchecked.secret))?.id, unchecked.key.id, "and the other once the connection is free");
      assert.deepEqual(lines, []);
    } finally {
      await listener.close();
      health.close();
      await pool.end();
    }
  });

  it("prunes old usage rows in batches, on one replica at a time", async () => {
    const { url } = await freshDatabase();
    const pool = openPool(parseDatabaseUrl(url), 2, () => undefined);
    const other = openPool(parseDatabaseUrl(url), 1, () => undefined);
    try {
      await underLock(pool, (client) => migrate(client));
      await pool.query("INSERT INTO wisp_usage_events (id, t, key, status, replica) SELECT gen_random_uuid(), i, 'k', 200, 'r' FROM generate_series(1, 2500) AS i");
      await pool.query("INSERT INTO wisp_usage_events (id, t, key, status, replica) SELECT gen_random_uuid(), 10000 + i, 'k', 200, 'r' FROM generate_series(1, 10) AS i");
      // Another replica pruning: this one skips.
      const busy = await other.connect();
      await busy.query("SELECT pg_advisory_lock($1)", [0x77697371]);
      assert.equal(await pruneUsage(pool, 10_000, 1_000), undefined);
      await busy.query("SELECT pg_advisory_unlock($1)", [0x77697371]);
      busy.release();
      assert.equal(await pruneUsage(pool, 10_000, 1_000), 2500);
      assert.deepEqual((await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM wisp_usage_events")).rows[0]!.n, 10, "the newer rows stay");
    } finally {
      await Promise.all([pool.end(), other.end()]);
    }
  });
});
