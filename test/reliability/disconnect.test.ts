import assert from "node:assert/strict";
import http from "node:http";
import { join } from "node:path";
import { RUN_MAX_TOKENS } from "../../src/server/engines/text/batch-decoder";
import { startReliabilityServer, TEXT_MODEL, untilIdle, type ReliabilityServer } from "./reliability-server";
import { endlessLogitBiasOf } from "../harness/endless-logit-bias";
import { record, scaled } from "./report";

type Drop = "before-response" | "after-headers" | "after-chunks";

/**
 * A long streaming request dropped by the client: before the response (still queued), right after
 * the headers, or after a few chunks. Resolves with how it was dropped.
 */
function droppedStream(server: ReliabilityServer, i: number, endless: Record<string, number>): Promise<Drop> {
  const drop: Drop = (["before-response", "after-headers", "after-chunks"] as const)[i % 3]!;
  return new Promise((resolve, reject) => {
    const request = http.request(`${server.baseUrl}/${i % 2 ? "chat/completions" : "completions"}`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
    });
    let chunks = 0;
    const end = () => {
      request.destroy();
      resolve(drop);
    };
    request.on("error", (error) => (request.destroyed ? resolve(drop) : reject(error)));
    request.on("response", (response) => {
      if (response.statusCode !== 200) return reject(new Error(`status ${response.statusCode}`));
      if (drop === "after-headers") return end();
      response.on("data", () => {
        if (++chunks === 3) end();
      });
      response.on("end", () => resolve(drop)); // finished before being dropped: still fine
    });
    // Still generating when the drop arrives: a stream that already ended cannot show the server
    // stopping it. The tiny model makes a token in well under a millisecond and, left to itself,
    // ends these after 6 and 127 tokens; with its end-of-generation tokens barred it writes all 2000.
    const body = i % 2
      ? { model: TEXT_MODEL, messages: [{ role: "user", content: "Tell me a long story." }], max_tokens: 2000, logit_bias: endless, stream: true }
      : { model: TEXT_MODEL, prompt: "Once upon a time", max_tokens: 2000, logit_bias: endless, stream: true };
    request.end(JSON.stringify(body));
    if (drop === "before-response") setTimeout(end, i % 7);
  });
}

describe("disconnect storm (real server process)", function () {
  this.timeout(300_000);
  let server: ReliabilityServer;
  before(async () => {
    server = await startReliabilityServer();
  });
  after(() => server?.stop());

  it("stays healthy after hundreds of streams dropped mid-way and serves the next request at once", async () => {
    const total = scaled(120, 500);
    const timed = async () => {
      const started = Date.now();
      const response = await server.fetch("/v1/completions", { method: "POST", body: JSON.stringify({ model: TEXT_MODEL, prompt: "def add(a, b):", max_tokens: 8 }) });
      assert.equal(response.status, 200);
      await response.json();
      return Date.now() - started;
    };
    await timed(); // model loaded
    const endless = await endlessLogitBiasOf(join(server.modelsDir, `${TEXT_MODEL}.gguf`));
    const baseline = Math.min(await timed(), await timed(), await timed());
    const before = await server.metrics();

    const kinds = new Map<Drop, number>();
    const failures: string[] = [];
    let next = 0;
    const started = Date.now();
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        for (let i = next++; i < total; i = next++) {
          const kind = await droppedStream(server, i, endless).catch((error: Error) => {
            failures.push(`request ${i}: ${error.message}`);
            return undefined;
          });
          if (kind) kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
        }
      }),
    );
    const stormMs = Date.now() - started;
    const idleMs = await untilIdle(server);
    const after = await server.metrics();
    const aborted = after.aborted - before.aborted;
    const afterAbort = after.tokensAfterAbort - before.tokensAfterAbort;
    const health = await fetch(`${server.origin}/health`);
    const next1 = await timed();
    record({
      category: "disconnect storm",
      cases: total,
      failures: failures.length + (health.status === 200 ? 0 : 1),
      notes: `${[...kinds].map(([k, n]) => `${k} ${n}`).join(", ")} in ${(stormMs / 1000).toFixed(1)} s; ${aborted} generations stopped; ${afterAbort} tokens after the drops; idle ${idleMs} ms after; next request ${next1} ms (before ${baseline} ms)`,
    });
    assert.deepEqual(failures.slice(0, 10), []);
    assert.equal(health.status, 200);
    assert.equal(after.sequences.busy, 0);
    assert.equal(after.sequences.waiting, 0);
    assert.ok(aborted > total / 3, `the server saw the drops (${aborted} aborted)`);
    // Each dropped generation stopped within the native call in flight when the server saw the
    // close: the server's own count, so no machine's speed enters it. With no sequence busy or
    // waiting (above), nothing stands in front of the next request; its time is in the report.
    assert.ok(afterAbort <= aborted * RUN_MAX_TOKENS, `${afterAbort} tokens generated after ${aborted} clients left`);
  });
});
