import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { DatabaseHealth } from "../../src/server/store/postgres/database-health";
import { parseDatabaseUrl } from "../../src/server/store/postgres/database-url";
import { InvalidationListener } from "../../src/server/store/postgres/invalidation-listener";
import { KeyCache } from "../../src/server/store/postgres/key-cache";
import { PgKeys } from "../../src/server/store/postgres/pg-keys";
import { connectionConfig, openPool } from "../../src/server/store/postgres/postgres-store";
import { migrate, underLock } from "../../src/server/store/postgres/schema";
import { postgresBin } from "../harness/postgres-cluster";
import { TempDirs } from "../harness/temp-dirs";
import { waitFor } from "../harness/wait-for";
import { freshDatabase } from "./support/shared-cluster";

const run = promisify(execFile);

describe("a backup restored as docs/team-server.md says (pg_dump, then pg_restore --clean) while replicas run", function () {
  this.timeout(120_000);
  const temp = new TempDirs();
  after(() => temp.removeAll());

  it("refuses, within a heartbeat, a key made after the dump, though the replica had checked it and holds it in its cache", async () => {
    const { cluster, name, url } = await freshDatabase();
    // The documented commands, with psql's environment for the wisp role.
    const env = { ...process.env, PGHOST: "127.0.0.1", PGPORT: String(cluster.port), PGUSER: cluster.role, PGPASSWORD: cluster.password };
    const dump = join(temp.make("backup"), "wisp.dump");
    const pool = openPool(parseDatabaseUrl(url), 2, () => undefined);
    const metrics = { databaseError: () => undefined, keyCache: () => undefined, usageRejected: () => undefined };
    const health = new DatabaseHealth(() => pool.query("SELECT 1"), metrics, () => undefined);
    const cache = new KeyCache(60_000, { maxAgeMs: 60_000 });
    const heartbeatMs = 500;
    const listener = new InvalidationListener(connectionConfig(parseDatabaseUrl(url)), cache, () => undefined, heartbeatMs);
    try {
      await underLock(pool, (client) => migrate(client));
      await listener.start();
      const keys = new PgKeys(pool, cache, health, metrics);
      const kept = await keys.create("in the backup");
      await run(join(postgresBin(), "pg_dump"), ["--format=custom", `--file=${dump}`, name], { env });
      const later = await keys.create("made after the dump");
      assert.equal((await keys.verify(later.secret))?.id, later.key.id);
      assert.equal((await keys.verify(kept.secret))?.id, kept.key.id);

      await run(join(postgresBin(), "pg_restore"), ["--clean", `--dbname=${name}`, dump], { env });
      const restoredAt = Date.now();
      assert.deepEqual((await cluster.query<{ name: string }>("SELECT name FROM wisp_api_keys", [], name)).map((k) => k.name), ["in the backup"]);
      await waitFor("the key the backup lacks refused", () => keys.verify(later.secret), (k) => k === undefined, 2 * heartbeatMs + 2_000);
      assert.ok(Date.now() - restoredAt <= 2 * heartbeatMs + 2_000, `refused after ${Date.now() - restoredAt} ms`);
      assert.equal((await keys.verify(kept.secret))?.id, kept.key.id, "the key in the backup still works");
      assert.ok(health.up);
    } finally {
      await listener.close();
      health.close();
      await pool.end();
    }
  });
});
