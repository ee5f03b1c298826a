import assert from "node:assert/strict";
import net from "node:net";
import { waitFor } from "../harness/wait-for";
import type { RecordedUsage } from "../../src/server/usage/usage-recorder";
import { metricsOf, startServer, TEXT_MODEL, type TestServer } from "./server-fixture";

/**
 * A TCP relay in front of a real upstream that can make every connection open so far behave as
 * one the upstream closed while idle, before the gateway has noticed: the next request written
 * on it gets the connection reset. New connections go through. (Done at the socket because the
 * real race, a close and a reuse in the same instant, cannot be timed from a test.)
 */
async function staleRelay(target: TestServer): Promise<{ url: string; connections: () => number; hold: () => () => void; closeIdle: () => void; close: () => Promise<void> }> {
  const open = new Set<net.Socket>();
  const stale = new WeakSet<net.Socket>();
  // While held, answers wait (in order) so that requests sent at once are in flight at once.
  let held: Promise<void> | undefined;
  const { port } = new URL(target.origin);
  const server = net.createServer((client) => {
    open.add(client);
    const upstream = net.connect(Number(port), "127.0.0.1");
    client.on("data", (chunk) => (stale.has(client) ? client.resetAndDestroy() : upstream.write(chunk)));
    upstream.on("data", (chunk) => (held ? void held.then(() => client.write(chunk)) : client.write(chunk)));
    const end = () => {
      open.delete(client);
      client.destroy();
      upstream.destroy();
    };
    client.on("close", end).on("error", end);
    upstream.on("close", end).on("error", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/v1`,
    connections: () => open.size,
    hold: () => {
      let release = () => {};
      held = new Promise((resolve) => (release = resolve));
      return () => {
        held = undefined;
        release();
      };
    },
    closeIdle: () => open.forEach((socket) => stale.add(socket)),
    close: () => new Promise((resolve) => {
      open.forEach((socket) => socket.destroy());
      server.close(() => resolve());
    }),
  };
}

describe("upstream connections kept alive", function () {
  this.timeout(120_000);
  let upstream: TestServer;
  let relay: Awaited<ReturnType<typeof staleRelay>>;
  let gateway: TestServer;
  before(async () => {
    upstream = await startServer();
    relay = await staleRelay(upstream);
    gateway = await startServer({
      localModels: false,
      upstreams: [{ name: "only", baseUrl: relay.url, keyEnv: "UPSTREAM_ONLY_KEY" }],
      env: { UPSTREAM_ONLY_KEY: upstream.key },
      upstreamTiming: { refreshMs: 60_000, backoffMs: 60_000, checkTimeoutMs: 2_000 },
    });
  });
  after(async () => {
    await gateway?.close();
    await relay?.close();
    await upstream?.close();
  });
  const ask = (prompt: string) => gateway.fetch("/v1/completions", { json: { model: TEXT_MODEL, prompt, max_tokens: 2, temperature: 0 } });

  /** Requests at once open as many connections, all kept for reuse afterwards; then they go stale. */
  const keepThreeThenCloseThem = async () => {
    const release = relay.hold();
    const answering = Promise.all(["one", "two", "three"].map(ask));
    await waitFor("three connections to the upstream", () => relay.connections(), (n) => n >= 3, 30_000);
    release();
    const answers = await answering;
    assert.deepEqual(answers.map((r) => r.status), [200, 200, 200]);
    relay.closeIdle();
  };
  const healthOf = () => {
    const [status] = gateway.deps.upstreams.status();
    return [status!.healthy, status!.last_error];
  };

  it("answers through a replica that closed its idle connections, and keeps it in rotation", async () => {
    await keepThreeThenCloseThem();
    const response = await ask("four");
    assert.equal(response.status, 200, await response.clone().text());
    assert.equal(response.headers.get("x-wisp-upstream"), "only");
    assert.deepEqual(healthOf(), [true, null]);
  });

  it("records a request whose client left before the upstream's answer came (499), so no stop waits for its record", async () => {
    const stored: RecordedUsage[] = [];
    const usage = gateway.deps.store.usage;
    const record = usage.record;
    usage.record = (event) => (stored.push(event), record.call(usage, event));
    const release = relay.hold();
    try {
      const before = (await metricsOf(upstream)).requests;
      const client = new AbortController();
      const answer = gateway.fetch("/v1/completions", { json: { model: TEXT_MODEL, prompt: "gone", max_tokens: 2 }, signal: client.signal }).catch((error: Error) => error);
      await waitFor("the upstream to answer (held on the way back)", async () => (await metricsOf(upstream)).requests, (n) => n > before);
      client.abort();
      assert.equal(((await answer) as Error).name, "AbortError");
      await waitFor("the gateway to record it", () => gateway.deps.usage.unreported, (n) => n === 0, 3_000);
      assert.deepEqual(stored.map((e) => [e.model, e.status, e.prompt_tokens, e.completion_tokens]), [[TEXT_MODEL, 499, 0, 0]]);
    } finally {
      release();
      usage.record = record;
    }
  });

  it("finds such a replica healthy when it checks it", async () => {
    await keepThreeThenCloseThem();
    await gateway.deps.upstreams.start(); // checks every upstream now
    assert.deepEqual(healthOf(), [true, null]);
  });
});
