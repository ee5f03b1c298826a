import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildApp } from "../../src/server/app";
import { KeyStore } from "../../src/server/auth/key-store";
import { AdminToken } from "../../src/server/store/admin-token-file";
import { parseDatabaseUrl } from "../../src/server/store/postgres/database-url";
import { openPool, PostgresStore } from "../../src/server/store/postgres/postgres-store";
import { knownMigrations } from "../../src/server/store/postgres/schema";
import { pruneUsage } from "../../src/server/store/postgres/usage-prune";
import { UsageLog } from "../../src/server/usage/usage-log";
import { freePort } from "../harness/free-port";
import type { PostgresCluster } from "../harness/postgres-cluster";
import { TempDirs } from "../harness/temp-dirs";
import { waitFor } from "../harness/wait-for";
import { freshDatabase } from "./support/shared-cluster";
import { root, wispServer } from "./support/team";

/** The newest schema version this wisp-server knows, and its migration files. */
const files = knownMigrations().map((m) => m.file);
const ours = knownMigrations().at(-1)!.version;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** stdout and stderr together, for checks that a secret is in neither. */
const everything = (r: { stdout: string; stderr: string }) => r.stdout + r.stderr;

describe("wisp-server on a PostgreSQL database: commands, migrations, import and bad input", function () {
  this.timeout(300_000);
  const temp = new TempDirs();
  let cluster: PostgresCluster;
  /** The name of the database made last. */
  let database = "";
  /** A new empty database of the shared cluster: wisp-server's URL for it. */
  const fresh = async () => {
    const made = await freshDatabase();
    ({ cluster, name: database } = made);
    return made.url;
  };
  after(() => temp.removeAll());

  it("stops with one clear line and a non-zero exit for a malformed URL, a refused password and a newer schema, never printing the password", async () => {
    const malformed = await wispServer(["--database", "postgres://wisp:hunter2@[::1/wisp"]);
    assert.notEqual(malformed.code, 0);
    assert.equal(malformed.stdout, "");
    assert.equal(malformed.stderr, "wisp-server: --database is not a URL (expected postgres://USER:PASSWORD@HOST:PORT/DATABASE; a password with @ : / ? # % or a space in it is written percent-encoded: %40 %3A %2F %3F %23 %25 %20)\n");
    const notPostgres = await wispServer(["keys", "list"], { WISP_DATABASE_URL: "mysql://wisp:hunter2@db/wisp" });
    assert.notEqual(notPostgres.code, 0);
    assert.match(notPostgres.stderr, /^wisp-server: --database must be a PostgreSQL URL starting with postgres:\/\/ .*\n$/);
    assert.ok(!everything(notPostgres).includes("hunter2"));

    const url = await fresh();
    const refused = await wispServer(["--port", "0", "--database", url.replace(cluster.password, "wrong-password")]);
    assert.equal(refused.code, 1);
    assert.equal(refused.stderr, `wisp-server: the database at postgres://wisp:***@127.0.0.1:${cluster.port}/${database} refused the login of user wisp: password authentication failed for user "wisp"\n`);
    assert.ok(!everything(refused).includes("wrong-password"));

    const migrated = await wispServer(["db", "migrate", "--database", url]);
    assert.equal(migrated.code, 0, everything(migrated));
    await cluster.query("INSERT INTO wisp_schema_migrations (version, name) VALUES ($1, 'from-a-newer-wisp-server.sql')", [ours + 1], database);
    const newer = await wispServer(["--port", "0"], { WISP_DATABASE_URL: url });
    assert.equal(newer.code, 1);
    assert.equal(newer.stderr, `wisp-server: the database's schema is at version ${ours + 1}, newer than this wisp-server knows (${ours}): run a newer wisp-server, or point --database at another database\n`);
    assert.ok(!everything(newer).includes(cluster.password));
    const status = await wispServer(["db", "status", "--database", url]);
    assert.ok(status.stdout.includes(`schema version ${ours + 1}: newer than this wisp-server knows (${ours})`), status.stdout);
  });

  it("is started again and again by its systemd unit while the database is away, however long, rather than left failed", async () => {
    // A replica that starts while the database is away (a machine booting before it, a restart
    // during its maintenance) exits at once, in well under a second on an idle machine.
    const unreachable = `postgres://wisp:pw@127.0.0.1:${await freePort()}/wisp`;
    const started = performance.now();
    const run = await wispServer(["--port", "0", "--no-local-models", "--upstream", "engine=http://127.0.0.1:9/v1", "--database", unreachable]);
    const failedInS = (performance.now() - started) / 1000;
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^wisp-server: cannot reach the database at postgres:\/\/wisp:\*\*\*@/);
    // systemd refuses a unit's start beyond StartLimitBurst starts in StartLimitIntervalSec (5 in
    // 10 s by default), and then never restarts it: the replica would stay down once the database
    // is back. However fast a start fails (a name not resolvable yet fails at once), that must not happen.
    const unit = readFileSync(join(root, "docs/team-server/wisp-server@.service"), "utf8");
    const setting = (name: string, fallback: number) => Number(new RegExp(`^${name}=(\\d+)`, "m").exec(unit)?.[1] ?? fallback);
    const interval = setting("StartLimitIntervalSec", 10);
    const burst = setting("StartLimitBurst", 5);
    const restartS = setting("RestartSec", 0.1);
    assert.ok(/^Restart=always$/m.test(unit));
    assert.ok(
      interval === 0 || burst * restartS >= interval,
      `RestartSec=${restartS}, StartLimitBurst=${burst}, StartLimitIntervalSec=${interval}: systemd gives up on a replica whose start fails in under ${(interval / burst - restartS).toFixed(1)} s (here: ${failedInS.toFixed(1)} s)`,
    );
  });

  /** A replica's store on `url`, as wisp-server opens it, with no rate limit. */
  const openStore = (url: string, extra: { firstPruneMs?: number } = {}) =>
    PostgresStore.open({
      url,
      rateLimit: { requestsPerMinute: 0, tokensPerMinute: 0 },
      databasePoolSize: 2,
      keyCacheGraceMs: 60_000,
      keyCacheMaxAgeMs: 60_000,
      keyListenerHeartbeatMs: 5_000,
      usageQueueMax: 100,
      loginCodeMs: 120_000,
      log: () => undefined,
      metrics: { databaseError: () => undefined, keyCache: () => undefined, usageRejected: () => undefined },
      ...extra,
    });

  it("prunes per-request usage rows past their retention soon after a replica starts: replicas restarted more often than hourly never pruned", async () => {
    const url = await fresh();
    const made = await openStore(url);
    await made.close();
    const day = 24 * 3_600_000;
    const row = "INSERT INTO wisp_usage_events (id, t, key, model, status, replica) VALUES (gen_random_uuid(), $1, 'k1', 'wisp-tiny', 200, 'r1')";
    await cluster.query(row, [Date.now() - 40 * day], database);
    await cluster.query(row, [Date.now() - day], database);
    const store = await openStore(url, { firstPruneMs: 100 });
    try {
      const ages = () => cluster.query<{ t: string }>("SELECT t FROM wisp_usage_events", [], database).then((rows) => rows.map((r) => Math.round((Date.now() - Number(r.t)) / day)));
      assert.deepEqual(await waitFor("the 40-day-old row pruned", ages, (left) => left.length === 1, 20_000), [1], "yesterday's row stays");
    } finally {
      await store.close();
    }
  });

  it("makes a first key, named default, on a database that never had one, and none after every key was revoked", async () => {
    const url = await fresh();
    const open = () => openStore(url);
    const first = await open();
    try {
      const made = await first.ensureKey("default");
      assert.equal(made?.key.name, "default", "the first start makes one");
      assert.equal(await first.ensureKey("default"), undefined, "and only one");
      // A leak: every key revoked. A replica restarted after that must not make a working key again.
      assert.ok(await first.keys.revoke(made!.key.id));
    } finally {
      await first.close();
    }
    const restarted = await open();
    try {
      assert.equal(await restarted.ensureKey("default"), undefined);
      assert.deepEqual((await restarted.keys.list()).map((k) => [k.name, k.revoked !== undefined]), [["default", true]], "no new key; the revoked one stays revoked");
    } finally {
      await restarted.close();
    }
  });

  it("migrates with db migrate once, says where things stand with db status, and manages keys with --database", async () => {
    const url = await fresh();
    const env = { WISP_DATABASE_URL: url };
    const before = await wispServer(["db", "status"], env);
    assert.equal(before.code, 0, everything(before));
    assert.match(before.stdout, new RegExp(`^database postgres://wisp:\\*\\*\\*@127\\.0\\.0\\.1:${cluster.port}/${database} \\(PostgreSQL 1\\d`));
    assert.ok(before.stdout.includes(`schema version 0 of ${ours}: to apply ${files.join(", ")}`), before.stdout);
    assert.match((await wispServer(["db", "migrate"], env)).stdout, new RegExp(`^${files.map((f) => `applied ${escape(f)}\\n`).join("")}.*schema version ${ours}\\n$`));
    assert.match((await wispServer(["db", "migrate"], env)).stdout, new RegExp(`schema version ${ours}, up to date\\n$`));

    const created = await wispServer(["keys", "create", "--name", "ci", "--database", url]);
    const [line, secret] = created.stdout.trim().split("\n");
    const id = new RegExp(`^created (key_\\w+) \\(ci\\) in the database postgres://wisp:\\*\\*\\*@127\\.0\\.0\\.1:${cluster.port}/${database}$`).exec(line!)![1]!;
    assert.match(secret!, /^wisp-[\w-]{43}$/);
    assert.match((await wispServer(["keys", "list"], env)).stdout, new RegExp(`^${id}\\tci\\twisp-\\S+…\\tcreated \\S+\\n$`));
    assert.equal((await wispServer(["keys", "revoke", id], env)).stdout, `revoked ${id} in the database postgres://wisp:***@127.0.0.1:${cluster.port}/${database}\n`);
    assert.match((await wispServer(["keys", "list"], env)).stdout, /\trevoked\n$/);
    const unknown = await wispServer(["keys", "revoke", "key_nothing"], env);
    assert.notEqual(unknown.code, 0);

    const status = await wispServer(["db", "status"], env);
    assert.ok(status.stdout.includes(`schema version ${ours} of ${ours}: up to date`), status.stdout);
    assert.match(status.stdout, /keys: 0 active, 1 revoked/);
    for (const r of [before, created, status]) assert.ok(!everything(r).includes(cluster.password));
  });

  it("connects over the database's unix socket in the forms psql takes: wisp@/DB?host=FOLDER, and no host with PGHOST", async () => {
    await fresh();
    const socketUser = await wispServer(["db", "migrate", "--database", `postgresql://wisp@/${database}?host=${encodeURIComponent(cluster.dir)}&port=${cluster.port}`]);
    assert.equal(socketUser.code, 0, everything(socketUser));
    assert.match(socketUser.stdout, new RegExp(`postgresql://wisp@/${database}\\?host=${escape(encodeURIComponent(cluster.dir))}: schema version ${ours}\n$`));
    const fromEnv = await wispServer(["keys", "create", "--name", "socket", "--database", `postgresql:///${database}`], { PGHOST: cluster.dir, PGPORT: String(cluster.port), PGUSER: "wisp" });
    assert.equal(fromEnv.code, 0, everything(fromEnv));
    assert.equal((await cluster.query<{ name: string }>("SELECT name FROM wisp_api_keys", [], database)).map((k) => k.name).join(), "socket");
  });

  it("imports a file server's keys, usage counts and admin token once: run again, even after the prune of its rows, it adds nothing", async () => {
    const dataDir = temp.make("import-data");
    const keys = new KeyStore(dataDir);
    const alice = await keys.create("alice");
    const bob = await keys.create("bob");
    await keys.revoke(bob.key.id);
    const { token } = await AdminToken.loadOrCreate(dataDir);
    const usage = await UsageLog.open(dataDir);
    const hour = 3_600_000;
    const t0 = Math.floor(Date.now() / hour) * hour - 5 * hour;
    for (let i = 0; i < 40; i++) {
      usage.record({ t: t0 + (i % 4) * hour + i, key: i % 3 === 0 ? bob.key.id : alice.key.id, model: i % 5 === 0 ? null : "wisp-tiny", status: i % 7 === 0 ? 429 : 200, prompt_tokens: i, completion_tokens: 2 * i, images: 0 });
    }
    await usage.close();
    const expected = (await UsageLog.read(dataDir)).snapshot();

    const url = await fresh();
    const first = await wispServer(["db", "import", "--data-dir", dataDir, "--database", url]);
    assert.equal(first.code, 0, everything(first));
    assert.match(first.stdout, /^keys: 2 imported, 0 already there/m);
    assert.match(first.stdout, new RegExp(`^usage: ${expected.buckets.length} hourly counts imported, 0 already there \\(40 requests`, "m"));
    assert.match(first.stdout, /^console admin token: imported/m);
    const second = await wispServer(["db", "import", "--data-dir", dataDir, "--database", url]);
    assert.match(second.stdout, /^keys: 0 imported, 2 already there/m);
    assert.match(second.stdout, new RegExp(`^usage: 0 hourly counts imported, ${expected.buckets.length} already there`, "m"));
    assert.match(second.stdout, /^console admin token: already there/m);
    // Once the imported hours pass the per-request records' retention the prune deletes their rows
    // (here all rows up to now): an import run again still adds nothing.
    const pool = openPool(parseDatabaseUrl(url), 1, () => undefined);
    try {
      assert.equal(await pruneUsage(pool, Date.now()), expected.buckets.length);
    } finally {
      await pool.end();
    }
    const third = await wispServer(["db", "import", "--data-dir", dataDir, "--database", url]);
    assert.equal(third.code, 0, everything(third));
    assert.match(third.stdout, new RegExp(`^usage: 0 hourly counts imported, ${expected.buckets.length} already there`, "m"));

    const hourly = await cluster.query<Record<string, string>>("SELECT hour, key, model, requests, errors, prompt_tokens, completion_tokens, images FROM wisp_usage_hourly ORDER BY hour, key, model", [], database);
    assert.deepEqual(
      hourly.map((r) => ({ hour: Number(r.hour), key: r.key, model: r.model, requests: Number(r.requests), errors: Number(r.errors), prompt_tokens: Number(r.prompt_tokens), completion_tokens: Number(r.completion_tokens), images: Number(r.images) })),
      expected.buckets,
    );
    const stored = await cluster.query<{ id: string; hash: Buffer; revoked: string | null }>("SELECT id, hash, revoked FROM wisp_api_keys ORDER BY id", [], database);
    const file = JSON.parse(readFileSync(join(dataDir, "keys.json"), "utf8")) as { keys: { id: string; hash: string; revoked?: number }[] };
    assert.deepEqual(
      stored.map((k) => [k.id, k.hash.toString("hex"), k.revoked === null ? undefined : Number(k.revoked)]),
      file.keys.map((k) => [k.id, k.hash, k.revoked]).sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    const lastUsed = await cluster.query<{ key: string; t: string }>("SELECT key, t FROM wisp_key_last_used", [], database);
    assert.deepEqual(Object.fromEntries(lastUsed.map((r) => [r.key, Number(r.t)])), expected.lastUsed);
    assert.equal((await cluster.query("SELECT 1 FROM wisp_admin_tokens WHERE hash = sha256($1::bytea)", [Buffer.from(token)], database)).length, 1);
    // The imported keys are the same keys, and the console shows the same usage.
    const { app, deps } = await buildApp({ modelsDir: temp.make("import-models"), dataDir: temp.make("import-replica"), localModels: false, database: url });
    try {
      const origin = await app.listen({ host: "127.0.0.1", port: 0 });
      const status = async (secret: string) => (await fetch(`${origin}/v1/models`, { headers: { authorization: `Bearer ${secret}` } })).status;
      assert.equal(await status(alice.secret), 200);
      assert.equal(await status(bob.secret), 401, "revoked in the file, revoked in the database");
      // (The two requests just made are counted in this hour, apart from the imported ones.)
      assert.deepEqual((await deps.store.usage.buckets(t0)).filter((b) => b.hour < t0 + 4 * hour), expected.buckets);
    } finally {
      await app.close();
    }
  });

  it("an import run again revokes the keys revoked on the file server since, and adds what it counted since in the hours imported before, once", async () => {
    const dataDir = temp.make("reimport-data");
    const keys = new KeyStore(dataDir);
    const alice = await keys.create("alice");
    const hour = 3_600_000;
    const h1 = Math.floor(Date.now() / hour) * hour - 3 * hour;
    const record = async (n: number, t: number) => {
      const usage = await UsageLog.open(dataDir);
      for (let i = 0; i < n; i++) usage.record({ t: t + i, key: alice.key.id, model: "wisp-tiny", status: 200, prompt_tokens: 2, completion_tokens: 3, images: 0 });
      await usage.close();
    };
    const importAgain = async () => {
      const result = await wispServer(["db", "import", "--data-dir", dataDir, "--database", url]);
      assert.equal(result.code, 0, everything(result));
      return result.stdout;
    };
    const hourly = async () =>
      (await cluster.query<Record<string, string>>("SELECT hour, key, model, requests, errors, prompt_tokens, completion_tokens, images FROM wisp_usage_hourly ORDER BY hour, key, model", [], database)).map((r) => ({
        hour: Number(r.hour), key: r.key, model: r.model, requests: Number(r.requests), errors: Number(r.errors), prompt_tokens: Number(r.prompt_tokens), completion_tokens: Number(r.completion_tokens), images: Number(r.images),
      }));
    const revoked = async () => (await cluster.query<{ revoked: string | null }>("SELECT revoked FROM wisp_api_keys WHERE id = $1", [alice.key.id], database))[0]!.revoked;
    await record(5, h1);
    const url = await fresh();
    assert.match(await importAgain(), /^usage: 1 hourly counts imported, 0 already there \(5 requests/m);
    // The file server goes on: the key is revoked, its hour counts 7 more, and a later hour 2.
    await keys.revoke(alice.key.id);
    await record(7, h1 + 100);
    await record(2, h1 + hour);
    const second = await importAgain();
    assert.match(second, /^keys: 0 imported, 1 revoked as in the file, 0 already there/m);
    assert.match(second, /^usage: 1 hourly counts imported, 1 brought up to date, 0 already there \(14 requests/m);
    const expected = (await UsageLog.read(dataDir)).snapshot().buckets;
    assert.deepEqual(await hourly(), expected);
    assert.equal(Number(await revoked()), (await keys.list())[0]!.revoked);
    // Again, and after the prune of the imported rows: nothing more.
    const pool = openPool(parseDatabaseUrl(url), 1, () => undefined);
    try {
      await pruneUsage(pool, Date.now());
    } finally {
      await pool.end();
    }
    const third = await importAgain();
    assert.match(third, /^keys: 0 imported, 1 already there/m);
    assert.match(third, /^usage: 0 hourly counts imported, 2 already there/m);
    assert.deepEqual(await hourly(), expected);
  });

  it("reports on /metrics each pool's connections, idle and active, summing to what the database counts, and each pool's queued queries", async () => {
    const url = await fresh();
    const { app, deps } = await buildApp({ modelsDir: temp.make("pools-models"), dataDir: temp.make("pools-replica"), localModels: false, database: url, rateLimit: { requestsPerMinute: 100, tokensPerMinute: 0 } });
    try {
      const origin = await app.listen({ host: "127.0.0.1", port: 0 });
      const { secret } = await deps.keys.create("pools");
      // A key check (the main pool) and an admission (the admissions pool), for a model there is not.
      const asked = await fetch(`${origin}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "no-such-model", messages: [{ role: "user", content: "hi" }] }),
      });
      assert.equal(asked.status, 404, await asked.text());
      const connections = (text: string, pool: string) =>
        [...text.matchAll(new RegExp(`^wisp_database_pool_connections\\{pool="${pool}",state="(idle|active)"\\} (\\d+)$`, "gm"))].map((m) => [m[1], Number(m[2])] as const);
      // The database's count of this replica's connections, less the key listener's.
      const counted = async () => Number((await cluster.query<{ n: string }>("SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1 AND application_name = 'wisp-server'", [database]))[0]!.n) - 1;
      await waitFor(
        "the pools' connections on /metrics to be those the database counts",
        async () => {
          const text = await (await fetch(`${origin}/metrics`)).text();
          const pools = { main: connections(text, "main"), admissions: connections(text, "admissions") };
          return { pools, sum: [...pools.main, ...pools.admissions].reduce((n, [, v]) => n + v, 0), database: await counted() };
        },
        ({ pools, sum, database }) => sum === database && pools.main.length === 2 && pools.admissions.length === 2 && pools.main.some(([, v]) => v > 0) && pools.admissions.some(([, v]) => v > 0),
      );
      const text = await (await fetch(`${origin}/metrics`)).text();
      for (const pool of ["main", "admissions"]) assert.match(text, new RegExp(`^wisp_database_pool_waiting_requests\\{pool="${pool}"\\} 0$`, "m"));
    } finally {
      await app.close();
    }
  });
});
