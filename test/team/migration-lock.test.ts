import assert from "node:assert/strict";
import { parseDatabaseUrl } from "../../src/server/store/postgres/database-url";
import { openPool } from "../../src/server/store/postgres/postgres-store";
import { migrate, underLock } from "../../src/server/store/postgres/schema";
import { freshDatabase } from "./support/shared-cluster";

describe("schema changes under the advisory lock", function () {
  this.timeout(120_000);

  it("waits for another replica's migration longer than the pool's 10 s statement timeout, then migrates", async () => {
    const { url } = await freshDatabase();
    const pool = openPool(parseDatabaseUrl(url), 2, () => undefined);
    const other = openPool(parseDatabaseUrl(url), 1, () => undefined);
    try {
      // Another replica holds the lock (a long migration of its own) for 11 s.
      let waiting: Promise<unknown> | undefined;
      let settled = false;
      await underLock(other, async () => {
        waiting = underLock(pool, (client) => migrate(client)).catch((error: unknown) => error);
        void waiting.then(() => (settled = true));
        // The span under test: longer than the 10 s after which the pool's statements are cut.
        await new Promise((done) => setTimeout(done, 11_000));
      });
      assert.equal(settled, false, "it waited for the lock all along");
      const outcome = await waiting;
      assert.ok(!(outcome instanceof Error), `the waiting replica failed: ${String(outcome)}`);
      const applied = await pool.query("SELECT count(*)::int AS n FROM wisp_schema_migrations");
      assert.ok(applied.rows[0].n >= 1);
    } finally {
      await Promise.all([pool.end(), other.end()]);
    }
  });
});
