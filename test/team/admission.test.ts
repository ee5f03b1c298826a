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

  it("holds a key at most a minute when the database's clock was set back an hour (its window and usage stamped in the clock's future)", async () => {
    const { url } = await freshDatabase();
    const pool = openPool(parseDatabaseUrl(url), 2, () => undefined);
    try {
      await underLock(pool, (client) => migrate(client));
      const admit = async (key: string, rpm: number, tpm: number) => {
        const { rows } = await pool.query<{ retry_ms: string | null }>("SELECT retry_ms FROM wisp_admit($1, $2, $3)", [key, rpm, tpm]);
        return rows[0]!.retry_ms === null ? "admitted" : `retry in ${Math.ceil(Number(rows[0]!.retry_ms) / 1000)} s`;
      };
      // What the last minute before the clock went back an hour left: 3 requests, and 100 tokens spent.
      const hourAhead = "(extract(epoch FROM now()) * 1000)::bigint + 3600000";
      await pool.query(`INSERT INTO wisp_rate_windows (key, requests) SELECT 'requests', array_agg(${hourAhead} - i * 1000) FROM generate_series(1, 3) AS i`);
      await pool.query(`INSERT INTO wisp_usage_events (id, t, key, model, status, prompt_tokens, completion_tokens, replica) VALUES (gen_random_uuid(), ${hourAhead}, 'tokens', 'm', 200, 60, 40, 'r1')`);

      const refused = await admit("requests", 3, 0);
      assert.match(refused, /^retry in \d+ s$/, "requests=3: the 3 requests still count");
      assert.ok(Number(/\d+/.exec(refused)![0]) <= 60, `requests=3 with 3 requests before the clock went back: ${refused}, not for the hour it went back`);
      assert.equal(await admit("tokens", 0, 50), "admitted", "tokens=50: the key is not held for the hour the clock went back");
    } finally {
      await pool.end();
    }
  });
});
