import assert from "node:assert/strict";
import { parseDatabaseUrl } from "../../src/server/store/postgres/database-url";
import { openPool } from "../../src/server/store/postgres/postgres-store";
import { migrate, underLock } from "../../src/server/store/postgres/schema";
import { freshDatabase } from "./support/shared-cluster";

describe("rate-limit admissions in the database (wisp_admit)", function () {
  this.timeout(120_000);

  it("with a tokens limit only, leaves the key's window of requests alone; with a requests limit, still counts every admission", async () => {
    const { url } = await freshDatabase();
    const pool = openPool(parseDatabaseUrl(url), 2, () => undefined);
    try {
      await underLock(pool, (client) => migrate(client));
      const admit = async (key: string, rpm: number, tpm: number) => (await pool.query<{ retry_ms: string | null }>("SELECT retry_ms FROM wisp_admit($1, $2, $3)", [key, rpm, tpm])).rows[0]!.retry_ms === null;
      const window = async (key: string) => (await pool.query<{ n: number }>("SELECT coalesce(max(cardinality(requests)), 0)::int AS n FROM wisp_rate_windows WHERE key = $1", [key])).rows[0]!.n;
      // A key that was under requests=N before (its window has 6,200 recent entries), now under tokens=N only.
      await pool.query("INSERT INTO wisp_rate_windows (key, requests) SELECT 'busy', array_agg((extract(epoch FROM now()) * 1000)::bigint - i) FROM generate_series(1, 6200) AS i");
      const started = performance.now();
      for (let i = 0; i < 100; i++) assert.ok(await admit("busy", 0, 1_000_000));
      const perAdmission = (performance.now() - started) / 100;
      console.log(`      tokens-only admission beside a 6,200-entry window: ${perAdmission.toFixed(2)} ms each (round trip included)`);
      for (let i = 0; i < 50; i++) assert.ok(await admit("tokens-only", 0, 1_000_000));
      assert.equal(await window("tokens-only"), 0, "nothing appended for a tokens-only limit");
      assert.equal(await window("busy"), 6200, "the old window neither grown nor rewritten");

      const admitted = [];
      for (let i = 0; i < 5; i++) admitted.push(await admit("requests", 3, 0));
      assert.deepEqual(admitted, [true, true, true, false, false], "requests=3 still admits 3 a minute");
      assert.equal(await window("requests"), 3);
    } finally {
      await pool.end();
    }
  });
});
