import assert from "node:assert/strict";
import { neverEnd, readSse, TEXT_MODEL } from "./server-fixture";
import { gatewayForSuite, openStream, restartUpstream, untilHealth } from "./upstream-fixture";

describe("upstream replicas: spreading, failover and recovery", function () {
  this.timeout(120_000);
  const current = gatewayForSuite(["a", "b"]);
  const gateway = () => current().gateway;
  const ask = async () => {
    const response = await gateway().fetch("/v1/completions", { json: { model: TEXT_MODEL, prompt: "replica", max_tokens: 3, temperature: 0 } });
    return { status: response.status, upstream: response.headers.get("x-wisp-upstream"), body: (await response.json()) as { choices?: { text: string }[] } };
  };

  it("spreads requests over both replicas (which one takes a request is unit-tested: the fewest in flight)", async () => {
    const answers = [await ask(), await ask(), await ask(), await ask()];
    assert.deepEqual(answers.map((a) => a.status), [200, 200, 200, 200]);
    assert.deepEqual(answers.map((a) => a.upstream).sort(), ["a", "a", "b", "b"]);
  });

  it("sends a request that cannot reach a killed replica to the other one, and takes the killed one out", async () => {
    await current().upstreams.b!.app.close();
    // The gateway has not checked b since: the first request that picks it finds it gone.
    const answers = [await ask(), await ask(), await ask()];
    assert.deepEqual(answers.map((a) => [a.status, a.upstream]), Array(3).fill([200, "a"]));
    const b = gateway().deps.upstreams.status().find((u) => u.name === "b")!;
    assert.equal(b.healthy, false);
    assert.match(b.last_error!, /ECONNREFUSED/);
    // Back on the same address: a check (after its backoff) returns it to rotation.
    await restartUpstream(current(), "b");
    await untilHealth(gateway(), "b", true);
  });

  it("ends a stream cut mid-way by its upstream with an error event instead of hanging, and retries nothing", async () => {
    const logitBias = await neverEnd(current().upstreams.a!);
    const stream = await openStream(gateway(), "/chat/completions", { model: TEXT_MODEL, messages: [{ role: "user", content: "Keep going." }], max_tokens: 100_000, logit_bias: logitBias });
    const victim = String(stream.response.headers["x-wisp-upstream"]);
    await current().upstreams[victim]!.app.close();
    const events = await readSse(new Response(await stream.text()));
    const last = events.at(-1) as { error?: { message: string; code: string } };
    assert.match(last.error!.message, new RegExp(`^upstream ${victim} closed the stream before it ended`));
    assert.equal(last.error!.code, "upstream_disconnected");
    assert.ok(!events.includes("[DONE]"));
    assert.ok(events.length > 1, "the text before the cut was passed on");
  });

  it("answers 503 naming the upstream when no replica can be reached", async () => {
    const alive = Object.entries(current().upstreams).filter(([name]) => gateway().deps.upstreams.status().find((u) => u.name === name)!.healthy);
    for (const [, server] of alive) await server.app.close();
    const response = await gateway().fetch("/v1/completions", { json: { model: TEXT_MODEL, prompt: "anyone?", max_tokens: 2 } });
    assert.equal(response.status, 503);
    const { error } = (await response.json()) as { error: { message: string; type: string; code: string } };
    assert.match(error.message, /^no upstream serving 'wisp-tiny' could take the request \(upstream a: .+; upstream b: .+\)$/);
    assert.deepEqual([error.type, error.code], ["server_error", "upstream_unavailable"]);
  });
});
