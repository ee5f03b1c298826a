import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { DatabaseHealth } from "../../src/server/store/postgres/database-health";
import { parseDatabaseUrl } from "../../src/server/store/postgres/database-url";
import { PgUsage } from "../../src/server/store/postgres/pg-usage";
import { openPool } from "../../src/server/store/postgres/postgres-store";
import { migrate, underLock } from "../../src/server/store/postgres/schema";
import { waitFor } from "../harness/wait-for";
import { adminToken, browserHost, consoleLogin } from "./support/console-login";
import { rawRequest as send } from "../harness/raw-request";
import { freshDatabase } from "./support/shared-cluster";
import { MODEL, Team, type Replica } from "./support/team";

const SKEW_MS = 120_000;
/** --login-link-lifetime: well within the skew, and long enough for a link to be opened at once on a busy machine. */
const LINK_MS = 10_000;

/** One chat request straight to `replica`: its status, request id and Retry-After. */
async function chat(replica: Replica, secret: string) {
  const response = await fetch(`${replica.origin}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
    body: JSON.stringify({ model: MODEL, messages: [{ role: "user", content: "hi" }] }),
  });
  await response.text();
  return { status: response.status, id: response.headers.get("x-wisp-request-id")!, retryAfter: Number(response.headers.get("retry-after")) };
}

describe("replicas whose clocks are off (no NTP)", function () {
  this.timeout(240_000);
  let team: Team;
  let behind: Replica;
  let ahead: Replica;
  let onTime: Replica;
  before(async () => {
    const startedAfter = Date.now();
    // One answer (42 prompt and 12 completion tokens) is over the limit: the next is refused for a minute.
    team = await Team.start({ args: ["--rate-limit", "tokens=50", "--login-link-lifetime", String(LINK_MS / 1000)], clockSkewMs: [-SKEW_MS, SKEW_MS, 0] });
    [behind, ahead, onTime] = team.replicas as [Replica, Replica, Replica];
    // The clocks are off as an operator would see it: each replica's start time in GET /metrics.
    for (const replica of team.replicas) {
      const metrics = await (await fetch(`${replica.origin}/metrics`)).text();
      const started = Number(/^process_start_time_seconds (\d+)/m.exec(metrics)?.[1]) * 1000;
      const off = started - startedAfter;
      assert.ok(off > replica.clockSkewMs - 2_000 && off < replica.clockSkewMs + 60_000, `${replica.name} started at ${started} by its clock, ${off} ms off (meant to be ${replica.clockSkewMs})`);
    }
  });
  after(() => team?.close());
  afterEach(function () {
    if (this.currentTest?.state === "failed") console.log(team.outputs());
  });

  /** How long before the database's now the usage row of request `id` is stamped, ms, once it is stored. */
  const storedAge = async (id: string) => {
    const [row] = await waitFor(
      `the usage record of ${id}`,
      () => team.query<{ age: string }>("SELECT (extract(epoch FROM now()) * 1000)::bigint - t AS age FROM wisp_usage_events WHERE id = $1", [id]),
      (rows) => rows.length === 1,
    );
    return Number(row!.age);
  };

  /** Sends one request through `first`, then one through each of `next` once its usage is stored: what an operator checks. */
  async function spendThenRetry(first: Replica, next: readonly Replica[]) {
    const { secret } = await team.createKey(first.name);
    const served = await chat(first, secret);
    assert.equal(served.status, 200);
    const age = await storedAge(served.id);
    for (const replica of next) {
      const refused = await chat(replica, secret);
      assert.equal(refused.status, 429, `${replica.name} holds the key to its tokens limit (the record is stamped ${age} ms before the database's now)`);
      assert.ok(refused.retryAfter >= 1 && refused.retryAfter <= 60, `Retry-After ${refused.retryAfter} s is within the minute`);
    }
    assert.ok(age >= 0 && age < 10_000, `the record is stamped ${age} ms before the database's now: by its clock, not the replica's`);
  }

  it("counts the usage of a replica 120 s behind against the tokens limit: the next request gets 429 on it and on the others", async () => {
    await spendThenRetry(behind, [behind, onTime]);
  });

  it("does not hold a key beyond the minute for the usage of a replica 120 s ahead: Retry-After is within 60 s", async () => {
    await spendThenRetry(ahead, [ahead, onTime]);
  });

  /** What Wisp: Open Web Console does: trades the admin token for a one-time login link, through `replica`. */
  async function loginLink(replica: Replica): Promise<string> {
    const response = await fetch(`${replica.origin}/console/api/login-link`, { method: "POST", headers: { authorization: `Bearer ${adminToken(team)}` } });
    assert.equal(response.status, 200);
    return ((await response.json()) as { path: string }).path;
  }

  /** The database's clock, ms. */
  const databaseNow = async () => Number((await team.query<{ now: string }>("SELECT (extract(epoch FROM now()) * 1000)::bigint AS now"))[0]!.now);

  it("opens the console with a login link made through a replica 120 s ahead or behind, and through them with one made on time", async () => {
    const pairs = [[ahead, onTime], [onTime, ahead], [behind, onTime], [onTime, behind], [ahead, behind], [behind, ahead]] as const;
    for (const [made, opened] of pairs) {
      await consoleLogin(team, opened, await loginLink(made)).catch((error: Error) => {
        throw new Error(`a link made through ${made.name} (${made.clockSkewMs} ms), opened through ${opened.name} (${opened.clockSkewMs} ms): ${error.message}`);
      });
    }
  });

  it("refuses a login link once its lifetime is over by the database's clock, whichever replica made it or opens it", async () => {
    const pairs = [[ahead, onTime], [onTime, behind], [behind, ahead]] as const;
    const links = await Promise.all(pairs.map(([made]) => loginLink(made)));
    const madeBy = await databaseNow();
    await waitFor(`the links' ${LINK_MS} ms by the database's clock`, databaseNow, (now) => now > madeBy + LINK_MS, LINK_MS + 20_000);
    for (const [i, [made, opened]] of pairs.entries()) {
      const response = await send(opened.origin, links[i]!, { headers: { host: browserHost(team) } });
      assert.equal(response.status, 401, `a link made through ${made.name} (${made.clockSkewMs} ms), opened through ${opened.name} (${opened.clockSkewMs} ms) after its lifetime`);
      assert.match(response.text, /That login link has expired or was used already/);
    }
  });

  it("shows a key made and revoked in the console through the replica 120 s ahead at the database's time", async () => {
    const admin = await consoleLogin(team, ahead);
    const created = await admin.post(ahead, "/console/api/keys", { name: "made-ahead" });
    assert.equal(created.status, 201);
    const { key } = (await created.json()) as { key: { id: string } };
    assert.equal((await admin.post(ahead, `/console/api/keys/${key.id}/revoke`, {})).status, 200);
    const now = (await databaseNow()) / 1000;
    const { keys } = (await (await admin.get(onTime, "/console/api/keys")).json()) as { keys: { id: string; created: number; revoked: number }[] };
    const listed = keys.find((k) => k.id === key.id)!;
    for (const [what, t] of [["created", listed.created], ["revoked", listed.revoked]] as const) {
      assert.ok(t <= now && t > now - 10, `${what} at ${t} as the console shows it: ${Math.round(t - now)} s from the database's now`);
    }
  });
});

describe("a usage record written late", function () {
  this.timeout(120_000);

  it("is stamped when its request was served, by the database's clock: kept through a 90 s outage, it is stored 90 s before the write", async () => {
    const { url } = await freshDatabase();
    const pool = openPool(parseDatabaseUrl(url), 2, () => undefined);
    let away = true;
    const metrics = { databaseError: () => undefined, keyCache: () => undefined, usageRejected: () => undefined };
    const health = new DatabaseHealth(() => (away ? Promise.reject(new Error("Connection terminated")) : pool.query("SELECT 1")), metrics, () => undefined);
    // The replica's steady clock: the outage lasts 90 s by it, without the test waiting them.
    let steady = 0;
    const usage = new PgUsage(pool, health, 1_000, () => undefined, metrics, () => steady);
    try {
      await underLock(pool, (client) => migrate(client));
      health.failed(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }), "usage write");
      const id = randomUUID();
      await usage.record({ id, t: Date.now(), key: "key_late", model: "m", status: 200, prompt_tokens: 42, completion_tokens: 12, images: 0 });
      assert.equal(usage.pending(), 1, "kept while the database is away");
      steady += 90_000;
      away = false;
      const [row] = await waitFor(
        "the record stored once the database is back",
        async () => (await pool.query<{ age: string }>("SELECT (extract(epoch FROM now()) * 1000)::bigint - t AS age FROM wisp_usage_events WHERE id = $1", [id])).rows,
        (rows) => rows.length === 1,
      );
      const age = Number(row!.age);
      assert.ok(age >= 90_000 && age < 100_000, `stamped ${age} ms before the database's now`);
      assert.equal(usage.pending(), 0);
    } finally {
      usage.close();
      health.close();
      await pool.end();
    }
  });
});
