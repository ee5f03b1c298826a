import assert from "node:assert/strict";
import { waitFor } from "../harness/wait-for";
import { errorShapeProblem } from "../reliability/reliability-server";
import { fullRun, record, scaled } from "../reliability/report";
import { streamChat, type StreamRecord } from "./support/streams";
import { MODEL, SLOW_MODEL, Team, type Replica } from "./support/team";

const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(" ");

/** A Prometheus sample of a replica's /metrics (the first series of that name), or undefined. */
async function metric(replica: Replica, name: string): Promise<number | undefined> {
  const text = await (await fetch(`${replica.origin}/metrics`)).text();
  const match = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, "m").exec(text);
  return match ? Number(match[1]) : undefined;
}

const readyOf = async (replica: Replica) => {
  const response = await fetch(`${replica.origin}/ready`).catch(() => undefined);
  return response ? { status: response.status, body: (await response.json()) as { status: string; reasons?: string[] } } : undefined;
};

/** Usage rows of `keys` in the database, by request id. */
async function usageRows(team: Team, keys: string[]): Promise<Map<string, { prompt: number; completion: number }>> {
  const rows = await team.query<{ id: string; prompt_tokens: string; completion_tokens: string }>("SELECT id, prompt_tokens, completion_tokens FROM wisp_usage_events WHERE key = ANY($1)", [keys]);
  return new Map(rows.map((r) => [r.id, { prompt: Number(r.prompt_tokens), completion: Number(r.completion_tokens) }]));
}

/** The requests cut at the kill: each one that had begun by its id, those with no answer yet counted by error. */
function listCut(cut: StreamRecord[]): string {
  const unanswered = new Map<string, number>();
  for (const r of cut) if (!r.id) unanswered.set(r.error ?? "", (unanswered.get(r.error ?? "") ?? 0) + 1);
  return [...cut.filter((r) => r.id).map((r) => `${r.id} (replica2: ${r.error})`), ...[...unanswered].map(([error, n]) => `${n} with no answer yet (${error})`)].join("; ");
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

describe("replicas under faults: a drain, a database outage, and SIGKILL plus a database restart under load", function () {
  this.timeout(900_000);
  let team: Team;
  before(async () => {
    team = await Team.start({ args: ["--drain-delay", "1", "--drain-grace", "30", "--key-cache-grace", "60"], tokens: 12, tokensPerSecond: 20 });
  });
  after(() => team?.close());
  afterEach(function () {
    if (this.currentTest?.state === "failed") console.log(team.outputs());
  });

  it("drains on SIGTERM: /ready fails first, the balancer moves new requests to the others, the streams in flight finish, usage is stored, exit 0", async () => {
    const { id: keyId, secret } = await team.createKey("drain");
    const draining = team.replicas[0]!;
    let started = 0;
    const inFlight = Array.from({ length: 4 }, () => streamChat(team.client(secret, draining), keyId, () => started++, SLOW_MODEL));
    await waitFor("the four streams under way", () => started, (n) => n === 4, 60_000);
    const exited = draining.signal("SIGTERM");
    const ready = await waitFor("the draining replica's /ready to fail", () => readyOf(draining), (r) => r?.status === 503, 10_000);
    assert.deepEqual(ready?.body.reasons, ["draining: shutting down"]);
    // Requests through the balancer meanwhile: every one is answered, by the replicas that stay.
    const during: StreamRecord[] = [];
    let gone = false;
    void exited.then(() => (gone = true));
    while (!gone) during.push(...(await Promise.all(Array.from({ length: 4 }, () => streamChat(team.client(secret), keyId)))));
    assert.equal(await exited, 0, "exit code");
    const finished = await Promise.all(inFlight);
    for (const stream of finished) {
      assert.equal(stream.outcome, "completed", stream.error);
      assert.equal(stream.text, words(40));
    }
    assert.deepEqual(during.filter((r) => r.outcome !== "completed").map((r) => r.error), []);
    assert.ok(during.length >= 4);
    const rows = await usageRows(team, [keyId]);
    for (const stream of [...finished, ...during]) assert.deepEqual(rows.get(stream.id!), { prompt: stream.usage!.prompt_tokens, completion: stream.usage!.completion_tokens });
    assert.equal(rows.size, finished.length + during.length);
    assert.match(draining.output(), /draining: \/ready now fails; \d+ requests in flight/);
    assert.match(draining.output(), /\nstopped\n/);
    await draining.start();
    await waitFor("the restarted replica ready", () => readyOf(draining), (r) => r?.status === 200, 30_000);
  });

  it(`rides out the database going away${fullRun ? " for 30 s" : ""}: checked keys keep working, others get a clear 503, usage waits and is stored when it is back`, async () => {
    const known = await team.createKey("known");
    const unchecked = await team.createKey("unchecked");
    for (const r of team.replicas) assert.equal((await streamChat(team.client(known.secret, r), known.id)).outcome, "completed");
    await team.cluster.stopServer();
    const stoppedAt = Date.now();
    try {
      for (const r of team.replicas) {
        const ready = await waitFor(`${r.name}'s /ready to fail`, () => readyOf(r), (x) => x?.status === 503, 20_000);
        assert.match(ready!.body.reasons!.join(), /^database unavailable \(/);
      }
      const outage = await Promise.all(Array.from({ length: 12 }, () => streamChat(team.client(known.secret), known.id)));
      assert.deepEqual(outage.filter((r) => r.outcome !== "completed").map((r) => r.error), [], "the key checked before works through the balancer");
      for (const secret of [unchecked.secret, "wisp-not-a-key-at-all"]) {
        const response = await fetch(`${team.balancer.baseUrl}/chat/completions`, {
          method: "POST",
          headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
          body: JSON.stringify({ model: MODEL, messages: [{ role: "user", content: "hi" }], stream: true }),
        });
        assert.equal(response.status, 503);
        const body = (await response.json()) as { error: { code: string; type: string; message: string } };
        assert.equal(errorShapeProblem(body), undefined);
        assert.equal(body.error.code, "database_unavailable");
        assert.equal(body.error.type, "server_error");
        assert.match(body.error.message, /could not be checked: the database is unavailable/);
      }
      const queued = await Promise.all(team.replicas.map((r) => metric(r, "wisp_usage_queue_records")));
      assert.equal(queued.reduce((a, b) => a! + b!, 0), 12, "the outage's 12 records wait in the replicas' buffers");
      for (const r of team.replicas) assert.equal(await metric(r, "wisp_database_up"), 0);
      // The full run keeps the database away for 30 s, serving the checked key all along.
      while (Date.now() < stoppedAt + scaled(0, 30_000)) {
        const more = await Promise.all(Array.from({ length: 4 }, () => streamChat(team.client(known.secret), known.id)));
        assert.deepEqual(more.filter((r) => r.outcome !== "completed").map((r) => r.error), []);
        outage.push(...more);
      }
      await team.cluster.startServer();
      for (const r of team.replicas) {
        await waitFor(`${r.name} ready again`, () => readyOf(r), (x) => x?.status === 200, 30_000);
        await waitFor(`${r.name}'s buffer stored`, () => metric(r, "wisp_usage_queue_records"), (n) => n === 0, 30_000);
      }
      const rows = await usageRows(team, [known.id]);
      for (const stream of outage) assert.deepEqual(rows.get(stream.id!), { prompt: stream.usage!.prompt_tokens, completion: stream.usage!.completion_tokens });
      assert.equal(rows.size, 3 + outage.length);
    } finally {
      await team.cluster.startServer().catch(() => undefined);
    }
  });

  it(`keeps ${scaled(64, 64)} streams going through the balancer for ${scaled(20, 60)} s while a replica is SIGKILLed and restarted and the database restarts: no hung stream, only the killed replica's streams cut, usage equal to what clients received`, async () => {
    const seconds = scaled(20, 60);
    const concurrency = 64;
    const keys = await Promise.all(Array.from({ length: 4 }, (_, i) => team.createKey(`load-${i}`)));
    const records: StreamRecord[] = [];
    const started = Date.now();
    const events: Record<string, number> = {};
    // The load runs its time, and on until both faults are over (a restart may take long on a busy machine).
    let endAt = started + seconds * 1000;
    let maxQueue = 0;
    const sampler = setInterval(() => {
      for (const r of team.replicas) {
        if (r.alive()) void metric(r, "wisp_usage_queue_records").then((n) => (maxQueue = Math.max(maxQueue, n ?? 0)), () => undefined);
      }
    }, 250);
    const worker = async (w: number) => {
      const key = keys[w % keys.length]!;
      const client = team.client(key.secret);
      while (Date.now() < endAt) records.push(await streamChat(client, key.id));
    };
    const faults = (async () => {
      const victim = team.replicas[1]!;
      await new Promise((done) => setTimeout(done, seconds * 250));
      // Killed while it streams (its own /metrics request counts too).
      await waitFor("replica2 streaming", () => metric(victim, "wisp_requests_in_flight"), (n) => n! >= 4, 30_000);
      events.killAt = Date.now();
      await victim.signal("SIGKILL");
      events.died = Date.now();
      await victim.start();
      events.restarted = Date.now();
      await new Promise((done) => setTimeout(done, Math.max(0, started + seconds * 600 - Date.now())));
      events.databaseStop = Date.now();
      await team.cluster.stopServer();
      events.databaseStopped = Date.now();
      await team.cluster.startServer();
      events.databaseBack = Date.now();
      endAt = Math.max(endAt, Date.now() + 3_000);
    })();
    try {
      // A fault step that fails ends the load too; the sampler never outlives the test.
      const stopLoad = (error: unknown) => {
        endAt = 0;
        throw error;
      };
      await Promise.all([...Array.from({ length: concurrency }, (_, w) => worker(w)), faults.catch(stopLoad)]);
    } finally {
      clearInterval(sampler);
    }
    for (const r of team.replicas) await waitFor(`${r.name}'s buffer stored`, () => metric(r, "wisp_usage_queue_records"), (n) => n === 0, 60_000);

    const completed = records.filter((r) => r.outcome === "completed");
    const failed = records.filter((r) => r.outcome === "failed");
    // In flight on the killed replica when it died: sent before it was gone, ended after the kill,
    // answered by it (or cut before any answer came: then the balancer names no replica).
    const inFlight = failed.filter((r) => r.started <= events.died! && r.ended! >= events.killAt! && (r.servedBy === "replica2" || r.servedBy === undefined));
    // The documented 503: a key this replica had not checked yet (the restarted one's cache is
    // empty) while the database was away.
    const documented = failed.filter((r) => r.status === 503 && /database_unavailable/.test(r.error ?? "") && r.ended! >= events.databaseStop! && r.started <= events.databaseBack! + 5_000);
    const unexpected = failed.filter((r) => !inFlight.includes(r) && !documented.includes(r));
    const hung = records.filter((r) => r.ended! - r.started > 30_000);
    const rows = await usageRows(team, keys.map((k) => k.id));
    const mismatched = completed.filter((r) => rows.get(r.id!)?.prompt !== r.usage!.prompt_tokens || rows.get(r.id!)?.completion !== r.usage!.completion_tokens);
    const known = new Set(records.map((r) => r.id));
    const strayRows = [...rows.keys()].filter((id) => !known.has(id));
    const inFlightStored = inFlight.filter((r) => r.id !== undefined && rows.has(r.id));
    const sum = (list: { prompt: number; completion: number }[]) => list.reduce((a, b) => a + b.prompt + b.completion, 0);
    const receivedTokens = sum(completed.map((r) => ({ prompt: r.usage!.prompt_tokens, completion: r.usage!.completion_tokens })));
    const storedTokens = sum([...rows.values()]);
    const ttft = completed.map((r) => r.firstText! - r.started);

    const figures = [
      ["run", `${((endAt - started) / 1000).toFixed(0)} s, ${concurrency} streams at once through HAProxy, 3 replicas, ${fullRun ? "full" : "short"} run`],
      ["requests", `${records.length} (${((records.length * 1000) / (endAt - started)).toFixed(1)}/s): ${completed.length} completed, ${failed.length} failed`],
      ["replica2 SIGKILL", `at ${((events.killAt! - started) / 1000).toFixed(1)} s; listening again ${((events.restarted! - events.died!) / 1000).toFixed(1)} s later`],
      ["in flight at the kill", `${inFlight.length}, all cut: ${listCut(inFlight) || "none"}; ${inFlightStored.length} of them stored`],
      ["database restart", `at ${((events.databaseStop! - started) / 1000).toFixed(1)} s, down ${((events.databaseBack! - events.databaseStop!) / 1000).toFixed(1)} s; most usage records waiting at once: ${maxQueue}`],
      ["503 database_unavailable", `${documented.length} (keys a replica had not checked yet, while the database was away)`],
      ["other failures", `${unexpected.length}${unexpected.length ? `: ${unexpected.slice(0, 5).map((r) => `${r.error} at ${((r.ended! - started) / 1000).toFixed(1)} s (sent at ${((r.started - started) / 1000).toFixed(1)} s)`).join("; ")}` : ""}`],
      ["hung streams (> 30 s)", String(hung.length)],
      ["usage", `${completed.length} completed requests = ${completed.length - mismatched.length} rows with the tokens the client got; ${storedTokens - receivedTokens} tokens more in the database (the stored in-flight ones); ${strayRows.length} rows no client knows`],
      ["first text (client)", `p50 ${percentile(ttft, 50)} ms, p99 ${percentile(ttft, 99)} ms`],
    ];
    console.log(`\n      Faults under load\n${figures.map(([k, v]) => `      | ${k!.padEnd(22)} | ${v} |`).join("\n")}\n`);
    record({
      category: "team server under faults",
      cases: records.length,
      failures: unexpected.length + hung.length + mismatched.length + strayRows.length,
      notes: `${concurrency} streams ${seconds} s, replica SIGKILLed + restarted, database restarted: ${completed.length} completed, ${inFlight.length} cut at the kill (${inFlightStored.length} stored), ${documented.length} documented 503s, ${unexpected.length} other failures, ${hung.length} hung, usage rows = completed ${completed.length - mismatched.length}/${completed.length}`,
    });
    assert.deepEqual(unexpected.map((r) => `${r.error} (served by ${r.servedBy})`), []);
    assert.equal(hung.length, 0);
    assert.deepEqual(mismatched.map((r) => r.id), [], "every completed request stored once, with what its client got");
    assert.deepEqual(strayRows, [], "no record of a request no client sent");
    assert.equal(storedTokens - receivedTokens, sum(inFlightStored.map((r) => rows.get(r.id!)!)), "the database holds what clients got, plus the in-flight requests it lists");
    assert.ok(completed.length > concurrency, "the load went on through both faults");
    assert.ok(inFlight.length >= 1, "the kill cut streams under way");
  });
});
