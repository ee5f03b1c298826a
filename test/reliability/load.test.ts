import assert from "node:assert/strict";
import OpenAI from "openai";
import { startReliabilityServer, TEXT_MODEL, untilIdle, whileProbing, type ReliabilityServer } from "./reliability-server";
import { record, scaled } from "./report";

const clients = 16;
/** Growth allowed in the calmer of two equal loads: a leak grows in both, a one-time step in one. */
const leakGrowthMiB = 16;
/** V8's young generation at its largest (two 16 MiB semi-spaces): grown under load once and kept. */
const oneTimeStepMiB = 32;
const prompts = ["def add(a, b):", "function greet(name) {", "The quick brown fox", "SELECT * FROM", "import os\n"];

interface Tally {
  completed: number;
  rejected: number;
  errors: string[];
  tokens: number;
}

/** One streaming request, read to its end; a request that ends without finish_reason and [DONE] is lost. */
async function streamOnce(client: OpenAI, i: number, tally: Tally): Promise<void> {
  const maxTokens = 16 + (i % 48);
  try {
    let finished = false;
    if (i % 2 === 0) {
      const stream = await client.completions.create({ model: TEXT_MODEL, prompt: prompts[i % prompts.length]!, max_tokens: maxTokens, temperature: 0.8, stream: true });
      for await (const chunk of stream) {
        tally.tokens++;
        if (chunk.choices[0]?.finish_reason) finished = true;
      }
    } else {
      const messages = [{ role: "user" as const, content: prompts[i % prompts.length]! }];
      const stream = await client.chat.completions.create({ model: TEXT_MODEL, messages, max_tokens: maxTokens, temperature: 0.8, stream: true });
      for await (const chunk of stream) {
        tally.tokens++;
        if (chunk.choices[0]?.finish_reason) finished = true;
      }
    }
    if (finished) tally.completed++;
    else tally.errors.push(`request ${i} ended without a finish_reason`);
  } catch (error) {
    // 429 is the documented answer of a full queue: the client was told, nothing was lost.
    if ((error as { status?: number }).status === 429) tally.rejected++;
    else tally.errors.push(`request ${i}: ${(error as Error).message}`);
  }
}

async function runLoad(server: ReliabilityServer, durationMs: number): Promise<Tally> {
  const client = new OpenAI({ baseURL: server.baseUrl, apiKey: server.key, maxRetries: 0, timeout: 120_000 });
  const tally: Tally = { completed: 0, rejected: 0, errors: [], tokens: 0 };
  const until = Date.now() + durationMs;
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (Date.now() < until) await streamOnce(client, next++, tally);
    }),
  );
  return tally;
}

describe("load: 16 concurrent streaming clients (real server process)", function () {
  const durationMs = scaled(10_000, 60_000);
  this.timeout(durationMs * 4 + 120_000);
  let server: ReliabilityServer;
  before(async () => {
    server = await startReliabilityServer();
  });
  after(() => server?.stop());

  it("completes or cleanly queues every request, leaves nothing busy, and keeps its memory", async () => {
    // Resident memory moves in steps under load with no leak (149 to 188 MiB seen; 60 s runs end
    // within 1% of where they began): V8 grows its young generation when allocation is fast and
    // keeps it, malloc keeps arenas, and the old generation is collected when V8 likes. A step
    // happens once; a leak grows with every request. So memory is read as a level (the lowest of
    // five samples, each after a short burst) before and after each of two equal loads, and the
    // smaller of the two growths must stay under leakGrowthMiB: a leak of 15 KiB per request
    // (about 1200 requests a phase in the short run) grows both phases past it.
    const rssLevel = async (burstMs: number) => {
      const samples: number[] = [];
      for (let i = 0; i < 5; i++) {
        await runLoad(server, burstMs);
        await untilIdle(server);
        samples.push(server.rssKiB());
      }
      return { floor: Math.min(...samples), samples };
    };
    // Warm-up: models loaded, every sequence used, the JIT settled, the heap near its working size
    // (chat requests alone settle about 10 MiB above completions alone).
    await runLoad(server, scaled(6000, 20_000));
    const levels = [await rssLevel(1000)];
    await untilIdle(server);
    const before = await server.metrics();

    const { result: tally, healthy } = await whileProbing(server, 200, () => runLoad(server, durationMs));
    const healthyMs = healthy.latenciesMs;
    const healthyFailures = healthy.failures;

    const settleMs = await untilIdle(server);
    const after = await server.metrics();
    levels.push(await rssLevel(1000));
    const second = await runLoad(server, durationMs);
    levels.push(await rssLevel(1000));

    const [a, b, c] = levels.map((level) => level.floor) as [number, number, number];
    const growthsMiB = [(b - a) / 1024, (c - b) / 1024];
    const leakMiB = Math.min(...growthsMiB);
    const perRequestKiB = (leakMiB * 1024) / Math.max(1, Math.max(tally.completed, second.completed));
    const worst = Math.max(...healthyMs);
    const p50 = [...healthyMs].sort((x, y) => x - y)[Math.floor(healthyMs.length / 2)]!;
    record({
      category: `load ${clients} streams ${durationMs / 1000} s`,
      cases: tally.completed + tally.rejected + tally.errors.length + second.completed + second.rejected + second.errors.length,
      failures: tally.errors.length + second.errors.length + healthyFailures,
      notes:
        `${tally.completed} + ${second.completed} completed, ${tally.rejected + second.rejected} queue-full 429, ${tally.tokens + second.tokens} chunks; ` +
        `RSS ${levels.map((level) => (level.floor / 1024).toFixed(0)).join("→")} MiB (growth per phase ${growthsMiB.map((g) => g.toFixed(1)).join(" / ")} MiB, ` +
        `${perRequestKiB.toFixed(1)} KiB per request at the least; samples ${levels.map((level) => level.samples.map((k) => (k / 1024).toFixed(0)).join("/")).join(" | ")}); ` +
        `healthy client p50 ${p50} ms, worst ${worst} ms; idle ${settleMs} ms after`,
    });
    assert.deepEqual([...tally.errors, ...second.errors].slice(0, 10), [], `${tally.errors.length + second.errors.length} requests failed or were lost`);
    assert.ok(tally.completed > clients, `${tally.completed} requests completed`);
    assert.ok(after.requests - before.requests >= tally.completed, "the server counted every completed request");
    assert.equal(after.sequences.busy, 0);
    assert.equal(after.sequences.waiting, 0);
    assert.equal(healthyFailures, 0, "the healthy client was always served");
    assert.ok(
      leakMiB <= leakGrowthMiB,
      `resident memory grew in both loads: ${growthsMiB.map((g) => g.toFixed(1)).join(" and ")} MiB (${levels.map((level) => level.floor).join(" → ")} KiB, ${perRequestKiB.toFixed(1)} KiB per request)`,
    );
    assert.ok(
      (c - a) / 1024 <= oneTimeStepMiB + leakGrowthMiB,
      `resident memory grew ${((c - a) / 1024).toFixed(1)} MiB over both loads (${levels.map((level) => level.floor).join(" → ")} KiB)`,
    );
  });
});
