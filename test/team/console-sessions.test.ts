import assert from "node:assert/strict";
import type { Pool } from "pg";
import { delay } from "../../src/core/base/delay";
import { DEFAULT_SESSION_LIMITS, sha256, type SessionLimits } from "../../src/server/store/console-sessions";
import { DatabaseHealth } from "../../src/server/store/postgres/database-health";
import { newDatabaseAdminToken } from "../../src/server/store/postgres/db-commands";
import { parseDatabaseUrl } from "../../src/server/store/postgres/database-url";
import { PgAdminTokens, PgSessions } from "../../src/server/store/postgres/pg-sessions";
import { openPool } from "../../src/server/store/postgres/postgres-store";
import { migrate, underLock } from "../../src/server/store/postgres/schema";
import { freshDatabase } from "./support/shared-cluster";

describe("console sessions in the database", function () {
  this.timeout(60_000);
  let pool: Pool;
  let health: DatabaseHealth;
  let url: string;
  before(async () => {
    ({ url } = await freshDatabase());
    pool = openPool(parseDatabaseUrl(url), 2, () => undefined);
    const metrics = { databaseError: () => undefined, keyCache: () => undefined, usageRejected: () => undefined };
    health = new DatabaseHealth(() => pool.query("SELECT 1"), metrics, () => undefined);
    await underLock(pool, (client) => migrate(client));
  });
  after(async () => {
    health?.close();
    await pool?.end();
  });

  const sessions = (limits: Partial<SessionLimits>) => new PgSessions(pool, health, { ...DEFAULT_SESSION_LIMITS, ...limits });

  /** Moves a session's times back by `ms` in the database, as if that long had passed: the idle
   * limit is then met exactly however long the machine takes (waiting 1-2 s against a 2 s limit
   * failed when the test's processes were not scheduled for a second). */
  const age = (cookie: string, ms: number) => pool.query("UPDATE wisp_console_sessions SET created = created - $2::bigint, last_seen = last_seen - $2::bigint WHERE id = $1", [sha256(cookie), ms]);

  it("ends every session, its playground key and every login link when a new admin token replaces the old one (wisp-server admin-token new)", async () => {
    // Sessions opened with a token that leaked: they outlive any restart of the replicas.
    const store = sessions({});
    const { cookie, session } = await store.create();
    const code = await store.issueLoginCode();
    assert.ok((await store.get(cookie)) && (await store.verify(session.playgroundKey)));
    const token = await newDatabaseAdminToken(url);
    assert.equal(await store.get(cookie), undefined, "the session ended");
    assert.equal(await store.verify(session.playgroundKey), undefined, "its playground key refused");
    assert.equal(await store.redeemLoginCode(code), false, "the login link no longer logs in");
    assert.ok(await new PgAdminTokens(pool, health).verify(token), "the new token logs in");
    assert.ok(await store.get((await store.create()).cookie), "and so do the sessions it opens");
  });

  it("ends a session, and its playground key, once it is idle too long; use keeps it alive", async () => {
    const store = sessions({ idleMs: 60_000 });
    const { cookie, session } = await store.create();
    await age(cookie, 40_000);
    assert.ok(await store.get(cookie), "used within the idle time");
    await age(cookie, 40_000);
    assert.ok(await store.get(cookie), "80 s after its start, 40 s after its use");
    assert.ok(await store.verify(session.playgroundKey));
    await age(cookie, 61_000);
    assert.equal(await store.get(cookie), undefined, "idle too long");
    assert.equal(await store.verify(session.playgroundKey), undefined);
  });

  it("ends sessions at their maximum age, and the oldest beyond the maximum count", async () => {
    const aging = sessions({ maxAgeMs: 1_000 });
    const old = await aging.create();
    await delay(1_100);
    assert.equal(await aging.get(old.cookie), undefined, "older than the maximum age");
    const few = sessions({ maxSessions: 2 });
    const [a, b, c] = [await few.create(), await few.create(), await few.create()];
    assert.equal(await few.get(a.cookie), undefined, "the oldest of three, beyond two");
    assert.ok((await few.get(b.cookie)) && (await few.get(c.cookie)));
  });

  it("ends the oldest beyond the maximum count when many are made in the same millisecond", async () => {
    // In one transaction now() stands still: every session gets the same `created`, as sessions made
    // at once on a fast database do (CI made two of three in one millisecond).
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      const oneInstant = new PgSessions({ query: client.query.bind(client) } as unknown as Pool, health, { ...DEFAULT_SESSION_LIMITS, maxSessions: 2 });
      const made = [];
      for (let i = 0; i < 12; i++) made.push(await oneInstant.create());
      const alive = [];
      for (const { cookie } of made) alive.push((await oneInstant.get(cookie)) !== undefined);
      assert.deepEqual(alive, [...Array(10).fill(false), true, true], "the last two of twelve made in one instant");
    } finally {
      await client.query("ROLLBACK");
      client.release();
    }
  });
});
