import assert from "node:assert/strict";
import { waitFor } from "../harness/wait-for";
import { startInProcessReplica, type InProcessReplica } from "./support/in-process-replica";
import { MODEL } from "./support/team";

describe("a replica's usage buffer while the database is away", function () {
  this.timeout(120_000);
  let replica: InProcessReplica | undefined;
  after(() => replica?.close());

  it("holds no more than --usage-queue records however many requests it refuses, and stores the admitted ones once the database is back", async () => {
    replica = await startInProcessReplica("fast", { usageQueueMax: 3 });
    const { deps, origin, cluster, database } = replica;
    const { key, secret } = await deps.store.keys.create("buffered");
    const headers = { authorization: `Bearer ${secret}`, "content-type": "application/json" };
    const chat = async () => (await fetch(`${origin}/v1/chat/completions`, { method: "POST", headers, body: JSON.stringify({ model: MODEL, messages: [{ role: "user", content: "hi" }] }) })).status;
    const models = async () => (await fetch(`${origin}/v1/models`, { headers })).status;
    assert.equal(await chat(), 200, "the key is checked, and cached, while the database is there");
    await waitFor("the first record stored", () => deps.store.usage.pending(), (n) => n === 0);
    await cluster.stopServer();
    const statuses: number[] = [];
    try {
      await waitFor("the replica seeing the database away", async () => (await fetch(`${origin}/ready`)).status, (s) => s === 503);
      for (let i = 0; i < 10; i++) statuses.push(await chat());
      for (let i = 0; i < 5; i++) statuses.push(await models());
      assert.deepEqual(statuses, [200, 200, 200, ...Array(7).fill(503), ...Array(5).fill(200)], "three admitted, then 503 for new generations");
      assert.equal(deps.store.usage.pending(), 3, "the buffer holds the three admitted requests' records, no more");
    } finally {
      await cluster.startServer();
    }
    const stored = await waitFor(
      "the buffered records stored",
      () => cluster.query<{ status: number; completion_tokens: string }>("SELECT status, completion_tokens FROM wisp_usage_events WHERE key = $1", [key.id], database),
      (rows) => rows.length >= 4,
    );
    assert.deepEqual(stored.map((r) => [r.status, Number(r.completion_tokens)]), Array(4).fill([200, 12]), "the four answers, each once");
  });
});
