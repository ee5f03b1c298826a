import assert from "node:assert/strict";
import { knownMigrations } from "../../src/server/store/postgres/schema";
import { waitFor } from "../harness/wait-for";
import { consoleLogin } from "./support/console-login";
import { MODEL, Team, type Replica } from "./support/team";

/** Streams one chat answer; resolves with the request id, the text and the usage the client got. */
async function chat(team: Team, secret: string, replica?: Replica) {
  const { data: stream, response } = await team.client(secret, replica).chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "hi" }], stream: true, stream_options: { include_usage: true } }).withResponse();
  let text = "";
  let usage: { prompt_tokens: number; completion_tokens: number } | undefined;
  for await (const chunk of stream) {
    text += chunk.choices[0]?.delta.content ?? "";
    if (chunk.usage) usage = chunk.usage;
  }
  return { id: response.headers.get("x-wisp-request-id")!, text, usage: usage! };
}

/** The HTTP status a replica (or the balancer) answers GET /v1/models with for `secret`. */
const statusOf = async (origin: string, secret: string) => (await fetch(`${origin}/v1/models`, { headers: { authorization: `Bearer ${secret}` } })).status;

describe("wisp-server replicas on one PostgreSQL database behind HAProxy", function () {
  this.timeout(240_000);
  let team: Team;
  before(async () => {
    team = await Team.start({ args: ["--rate-limit", "requests=60"] });
  });
  after(() => team?.close());
  afterEach(function () {
    if (this.currentTest?.state === "failed") console.log(team.outputs());
  });

  it("migrated the empty database once, though the three replicas started together, and made one admin token and one key", async () => {
    const migrations = await team.query<{ version: number }>("SELECT version FROM wisp_schema_migrations");
    assert.deepEqual(migrations.map((m) => m.version).sort((a, b) => a - b), knownMigrations().map((m) => m.version));
    const applied = team.replicas.filter((r) => /applied 001-initial\.sql/.test(r.output()));
    assert.equal(applied.length, 1, "one replica applied the migration");
    assert.equal((await team.query("SELECT hash FROM wisp_admin_tokens")).length, 1);
    assert.equal(team.replicas.filter((r) => /console: .*\/login\?token=wisp-admin-/.test(r.output())).length, 1, "the one that made the admin token shows it");
    assert.equal(team.replicas.filter((r) => /created API key key_\w+ \(default\)/.test(r.output())).length, 1);
    for (const r of team.replicas) assert.ok(!r.output().includes(team.cluster.password), `${r.name} never prints the database password`);
  });

  it("accepts a key created on one replica on every replica at once, and refuses it everywhere within a second of its revocation on another", async () => {
    const [a, b, c] = team.replicas as [Replica, Replica, Replica];
    const admin = await consoleLogin(team);
    const created = await admin.post(a, "/console/api/keys", { name: "alice" });
    const { key, secret } = (await created.json()) as { key: { id: string }; secret: string };
    for (const r of [a, b, c]) assert.equal(await statusOf(r.origin, secret), 200, `${r.name} knows the new key`);
    assert.equal(await statusOf(team.balancer.origin, secret), 200);
    // Every replica has the key in its cache now: the revocation must reach the caches.
    const revoked = await admin.post(b, `/console/api/keys/${key.id}/revoke`, {});
    assert.equal(revoked.status, 200);
    const at = Date.now();
    const reached = await Promise.all(
      [a, c].map(async (r) => {
        await waitFor(`${r.name} refusing the revoked key`, () => statusOf(r.origin, secret), (s) => s === 401, 10_000);
        return Date.now() - at;
      }),
    );
    assert.equal(await statusOf(b.origin, secret), 401);
    assert.ok(Math.max(...reached) < 1000, `refused everywhere after ${reached.join(", ")} ms`);
  });

  it("holds --rate-limit requests=60 per key across the three replicas: 60 of 150 requests through the balancer", async () => {
    const { secret } = await team.createKey("limited");
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    const send = async () => {
      const response = await fetch(`${team.balancer.baseUrl}/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
        body: JSON.stringify({ model: MODEL, messages: [{ role: "user", content: "hi" }], stream: true }),
      });
      await response.text();
      statuses.push(response.status);
      if (response.status === 429) retryAfter = response.headers.get("retry-after");
    };
    for (let i = 0; i < 15; i++) await Promise.all(Array.from({ length: 10 }, send));
    const admitted = statuses.filter((s) => s === 200).length;
    assert.deepEqual(new Set(statuses), new Set([200, 429]));
    assert.ok(Math.abs(admitted - 60) <= 3, `${admitted} admitted`);
    assert.ok(Number(retryAfter) >= 1 && Number(retryAfter) <= 60);
  });

  it("counts every request once: the usage every replica's console shows equals what the clients received", async () => {
    const { id: keyId, secret } = await team.createKey("counted");
    const answers = await Promise.all(Array.from({ length: 30 }, () => chat(team, secret)));
    const received = answers.reduce((sum, a) => ({ prompt: sum.prompt + a.usage.prompt_tokens, completion: sum.completion + a.usage.completion_tokens }), { prompt: 0, completion: 0 });
    const rows = await team.query<{ id: string; prompt_tokens: string; completion_tokens: string }>("SELECT id, prompt_tokens, completion_tokens FROM wisp_usage_events WHERE key = $1", [keyId]);
    assert.deepEqual(rows.map((r) => r.id).sort(), answers.map((a) => a.id).sort(), "one record per request, under the id each client got");
    const admin = await consoleLogin(team);
    for (const r of team.replicas) {
      const usage = (await (await admin.get(r, "/console/api/usage")).json()) as { buckets: { key: string; requests: number; prompt_tokens: number; completion_tokens: number }[] };
      const mine = usage.buckets.filter((b) => b.key === keyId);
      assert.equal(mine.reduce((s, b) => s + b.requests, 0), 30, `${r.name}'s Usage page`);
      assert.equal(mine.reduce((s, b) => s + b.prompt_tokens, 0), received.prompt);
      assert.equal(mine.reduce((s, b) => s + b.completion_tokens, 0), received.completion);
    }
  });

  it("keeps a console login made on one replica on the others", async () => {
    const admin = await consoleLogin(team, team.replicas[0]);
    for (const r of team.replicas) {
      const response = await admin.get(r, "/console/api/session");
      assert.equal(response.status, 200, r.name);
      assert.equal(((await response.json()) as { csrf_token: string }).csrf_token, admin.csrf);
    }
    const { secret } = (await (await admin.post(team.replicas[2]!, "/console/api/keys", { name: "from-console" })).json()) as { secret: string };
    assert.equal(await statusOf(team.replicas[1]!.origin, secret), 200);
  });

  it("answers /health, /ready and Prometheus /metrics on every replica", async () => {
    for (const r of team.replicas) {
      assert.equal((await fetch(`${r.origin}/health`)).status, 200);
      const ready = await fetch(`${r.origin}/ready`);
      assert.deepEqual([ready.status, await ready.json()], [200, { status: "ready" }]);
      const metrics = await fetch(`${r.origin}/metrics`);
      assert.match(metrics.headers.get("content-type") ?? "", /^text\/plain/);
      const text = await metrics.text();
      for (const name of ["wisp_requests_total", "wisp_time_to_first_token_seconds_bucket", "wisp_request_duration_seconds_bucket", "wisp_tokens_total", "wisp_queue_depth", "wisp_rate_limited_requests_total", "wisp_upstream_up", "wisp_database_up 1", "wisp_database_errors_total", "wisp_database_pool_connections{pool=\"main\",state=\"idle\"}", "wisp_database_pool_waiting_requests{pool=\"admissions\"}", "wisp_key_cache_total", "wisp_usage_queue_records 0", "wisp_requests_in_flight", "process_cpu_seconds_total"]) {
        assert.ok(text.includes(name), `${r.name}: ${name} in /metrics`);
      }
      assert.match(text, /wisp_requests_total\{route="\/v1\/chat\/completions",model="scripted-chat",upstream="fast",status="200"\} \d+/);
      assert.match(text, /wisp_upstream_up\{upstream="fast"\} 1/);
      assert.ok(!text.includes(team.cluster.password));
    }
    const rateLimited = await Promise.all(team.replicas.map(async (r) => Number(/wisp_rate_limited_requests_total (\d+)/.exec(await (await fetch(`${r.origin}/metrics`)).text())![1])));
    assert.equal(rateLimited.reduce((a, b) => a + b, 0), 90, "the 90 refused requests of the rate-limit test");
    // Scraped through the balancer, each scrape would be another replica's counters; and its clients are no operators.
    for (const path of ["/metrics", "/metrics.json"]) assert.equal((await fetch(`${team.balancer.origin}${path}`)).status, 403, path);
    assert.equal((await fetch(`${team.balancer.origin}/ready`)).status, 200, "the rest still goes through");
  });
});
