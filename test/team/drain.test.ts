import assert from "node:assert/strict";
import OpenAI from "openai";
import pg from "pg";
import { drain } from "../../src/server/drain";
import { waitFor } from "../harness/wait-for";
import { startInProcessReplica, type InProcessReplica } from "./support/in-process-replica";
import { streamChat } from "./support/streams";
import { MODEL, SLOW_MODEL } from "./support/team";

describe("a drain whose grace ends with a stream still running", function () {
  this.timeout(120_000);
  let replica: InProcessReplica | undefined;
  after(() => replica?.close());

  it("cuts the stream, stores what it used before the store closes, and says so in its last line", async () => {
    replica = await startInProcessReplica("slow", { drainDelayMs: 0, drainGraceMs: 500 });
    const { app, deps, origin, cluster, database: name } = replica;
    const { key, secret } = await deps.store.keys.create("drained");
    const lines: string[] = [];
    let drained: Promise<void> | undefined;
    // 40 tokens at 10 a second: still running when the half-second grace ends.
    const stream = await streamChat(new OpenAI({ baseURL: `${origin}/v1`, apiKey: secret, maxRetries: 0 }), key.id, () => (drained = drain(app, deps, (line) => lines.push(line))), SLOW_MODEL);
    await drained;
    assert.equal(stream.outcome, "failed", "cut before its end");
    assert.match(lines.join("\n"), /1 requests still running after 0.5 s: ending them/);
    const rows = await cluster.query<{ completion_tokens: string }>("SELECT completion_tokens FROM wisp_usage_events WHERE id = $1", [stream.id], name);
    assert.equal(rows.length, 1, `the cut stream's usage stored; the drain said: ${lines.join(" / ")}`);
    assert.ok(Number(rows[0]!.completion_tokens) >= 1);
    assert.equal(lines.at(-1), "stopped");
  });
});

describe("a client that leaves before its request reaches its route", function () {
  this.timeout(120_000);
  let replica: InProcessReplica | undefined;
  after(() => replica?.close());

  it("is counted (499, in usage and in /metrics) whether it left during its key check or its admission, and a drain neither waits for it nor calls it lost", async () => {
    replica = await startInProcessReplica("fast", { rateLimit: { requestsPerMinute: 100, tokensPerMinute: 0 }, drainDelayMs: 0, drainGraceMs: 500 });
    const { app, deps, origin, cluster, database: name, url } = replica;
    const send = (secret: string, signal?: AbortSignal) =>
      fetch(`${origin}/v1/chat/completions`, { method: "POST", signal, headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" }, body: JSON.stringify({ model: MODEL, messages: [{ role: "user", content: "hi" }] }) });
    const admitted = await deps.store.keys.create("admitted");
    assert.equal((await send(admitted.secret)).status, 200, "a first request: its key is checked and its window made");
    const fresh = await deps.store.keys.create("fresh");
    // Another session holds what the request waits for (a slow database); its client gives up meanwhile.
    const leaveWhileBlocked = async (secret: string, block: string) => {
      const locker = new pg.Client({ connectionString: url });
      await locker.connect();
      try {
        await locker.query("BEGIN");
        await locker.query(block);
        const abort = new AbortController();
        const request = send(secret, abort.signal).catch(() => undefined);
        await waitFor("the request blocked in the database", () => cluster.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'wisp-server' AND wait_event_type = 'Lock'", [], name), (rows) => rows[0]!.n === 1);
        abort.abort();
        await request;
        await waitFor("the server seeing the client leave", () => deps.lifecycle.inFlight, (n) => n === 0);
        await locker.query("COMMIT");
      } finally {
        await locker.end();
      }
    };
    await leaveWhileBlocked(admitted.secret, `SELECT 1 FROM wisp_rate_windows WHERE key = '${admitted.key.id}' FOR UPDATE`);
    await leaveWhileBlocked(fresh.secret, "LOCK TABLE wisp_api_keys IN ACCESS EXCLUSIVE MODE");
    const counted = await waitFor(
      "both requests counted",
      () => cluster.query<{ key: string; status: number }>("SELECT key, status FROM wisp_usage_events WHERE status = 499 ORDER BY key", [], name),
      (rows) => rows.length >= 2,
    );
    assert.deepEqual(counted, [{ key: admitted.key.id, status: 499 }, { key: fresh.key.id, status: 499 }].sort((a, b) => a.key.localeCompare(b.key)));
    assert.equal(deps.usage.unreported, 0);
    const metrics = await (await fetch(`${origin}/metrics`)).text();
    assert.match(metrics, /^wisp_requests_total\{route="\/v1\/chat\/completions",model="",upstream="",status="499"\} 2$/m, "Prometheus counts them as left (499), not answered");
    const lines: string[] = [];
    await drain(app, deps, (line) => lines.push(line));
    assert.equal(lines.at(-1), "stopped", "no usage record called lost");
  });
});
