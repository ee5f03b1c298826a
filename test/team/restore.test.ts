import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
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
import { startInProcessReplica, type InProcessReplica } from "./support/in-process-replica";
import { freshDatabase } from "./support/shared-cluster";
import { MODEL, wispServer } from "./support/team";

const run = promisify(execFile);

/** The options docs/team-server.md gives pg_restore (`pg_restore --clean … --dbname wisp FILE`), but --dbname. */
function documentedRestoreOptions(): string[] {
  const docs = readFileSync(join(import.meta.dirname, "..", "..", "docs", "team-server.md"), "utf8");
  const command = /`(pg_restore [^`]+)`/.exec(docs)![1]!.split(/\s+/);
  return command.filter((word, i) => word.startsWith("--") && word !== "--dbname" && command[i - 1] !== "--dbname");
}

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

      await run(join(postgresBin(), "pg_restore"), [...documentedRestoreOptions(), `--dbname=${name}`, dump], { env });
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

  it("restores into a new empty database (a lost database server) with the documented command, which exits 0 and says nothing", async () => {
    const { cluster, name, url } = await freshDatabase();
    const env = { ...process.env, PGHOST: "127.0.0.1", PGPORT: String(cluster.port), PGUSER: cluster.role, PGPASSWORD: cluster.password };
    const made = await wispServer(["keys", "create", "--name", "before the loss", "--database", url]);
    const secret = made.stdout.trim().split("\n")[1]!;
    const dump = join(temp.make("backup"), "wisp.dump");
    await run(join(postgresBin(), "pg_dump"), ["--format=custom", `--file=${dump}`, name], { env });
    const replacement = await freshDatabase();
    const restored = await run(join(postgresBin(), "pg_restore"), [...documentedRestoreOptions(), `--dbname=${replacement.name}`, dump], { env }).then(
      (r) => ({ code: 0, stderr: r.stderr }),
      (error: { code: number; stderr: string }) => error,
    );
    assert.deepEqual([restored.code, restored.stderr], [0, ""], "pg_restore's errors as an operator sees them");
    const keys = await wispServer(["keys", "list", "--database", replacement.url]);
    assert.match(keys.stdout, /\tbefore the loss\t/);
    assert.match(secret, /^wisp-/);
  });

  describe("a replica with --rate-limit while the restore runs", () => {
    let replica: InProcessReplica | undefined;
    after(() => replica?.close());

    it("answers requests, none a 500, while the tables are back but their constraints not yet (a large usage table's COPY), and stores their usage after", async () => {
      replica = await startInProcessReplica("fast", { rateLimit: { requestsPerMinute: 1_000, tokensPerMinute: 0 }, keyListenerHeartbeatMs: 500 });
      const { deps, origin, cluster, database: name } = replica;
      const env = { ...process.env, PGHOST: "127.0.0.1", PGPORT: String(cluster.port), PGUSER: cluster.role, PGPASSWORD: cluster.password };
      const restore = (...args: string[]) => run(join(postgresBin(), "pg_restore"), [...args, `--dbname=${name}`, dump], { env });
      const clean = documentedRestoreOptions();
      const send = async (secret: string) => {
        const response = await fetch(`${origin}/v1/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" }, body: JSON.stringify({ model: MODEL, messages: [{ role: "user", content: "hi" }] }) });
        return `${response.status} ${response.status === 200 ? "" : await response.text()}`.trim();
      };
      const { secret } = await deps.store.keys.create("team");
      assert.equal(await send(secret), "200");
      const dump = join(temp.make("backup"), "wisp.dump");
      await run(join(postgresBin(), "pg_dump"), ["--format=custom", `--file=${dump}`, name], { env });

      // pg_restore's own order, held where a large database spends its time: the tables made
      // again and filled, their keys, constraints and triggers still to come.
      await restore(...clean, "--section=pre-data");
      await restore("--section=data");
      const during = [];
      for (let i = 0; i < 5; i++) during.push(await send(secret));
      assert.deepEqual(during, ["200", "200", "200", "200", "200"]);
      await restore("--section=post-data");
      assert.equal(await send(secret), "200");
      await waitFor("the usage of the requests served during the restore stored", () => cluster.query<{ n: number }>("SELECT count(*)::int AS n FROM wisp_usage_events WHERE status = 200", [], name), (rows) => rows[0]!.n === 7);
    });
  });
});

