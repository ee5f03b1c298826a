import assert from "node:assert/strict";
import OpenAI from "openai";
import { startReliabilityServer, TEXT_MODEL, untilIdle, whileProbing, type MemoryAfterGc, type ReliabilityServer } from "./reliability-server";
import { record, scaled } from "./report";

const clients = 16;
const mib = 1024 * 1024;
/**
 * Growth allowed in the calmer of two equal loads, after a full GC: a leak grows in both, a one-time
 * step in one. The JS heap is read to the byte (a leak of 1.5 KiB per request failed it; leak-free
 * runs grew 0.4-0.5 MiB in the first load, shrank in the second); resident memory is not.
 */
const heapLeakKiBPerRequest = 0.75;
const rssLeakMiB = 16;
/** A step seen once under load and kept: V8's young generation at its largest (two 16 MiB semi-spaces). */
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
    server = await startReliabilityServer({ gcProbe: true });
  });
  after(() => server?.stop());

  it("completes or cleanly queues every request, leaves nothing busy, and keeps its memory", async () => {
    // Memory is read after a full garbage collection in the server (a preloaded probe, see
    // gc-probe.cjs): without one, resident memory moved 149 to 188 MiB under load with no leak, as
    // V8 collects its old generation when it likes, grows its young one and keeps it. A leak grows
    // with every request, a one-time step (malloc's arenas, a cache filling up) once: so memory is
    // read before and after each of two equal loads, and the calmer of the two growths is the leak.
    const level = async () => {
      const samples: MemoryAfterGc[] = [];
      for (let i = 0; i < 3; i++) {
        await runLoad(server, 1000);
        await untilIdle(server);
        samples.push(await server.collectGarbage());
      }
      return { heap: Math.min(...samples.map((m) => m.heapUsed)), rss: Math.min(...samples.map((m) => m.rss)), samples };
    };
    // Warm-up: models loaded, every sequence used, the JIT settled, caches at their working size.
    await runLoad(server, scaled(6000, 20_000));
    const levels = [await level()];
    await untilIdle(server);
    const before = await server.metrics();

    const { result: tally, healthy } = await whileProbing(server, 200, () => runLoad(server, durationMs));
    const healthyMs = healthy.latenciesMs;
    const healthyFailures = healthy.failures;

    const settleMs = await untilIdle(server);
    const after = await server.metrics();
    levels.push(await level());
    const second = await runLoad(server, durationMs);
    levels.push(await level());

    const requests = [tally.completed, second.completed].map((n) => Math.max(1, n));
    const growth = (of: "heap" | "rss") => {
      const [a, b, c] = levels.map((l) => l[of] / mib) as [number, number, number];
      const phases = [b - a, c - b];
      return { phases, leak: Math.min(...phases), total: c - a, perRequestKiB: Math.min(...phases.map((p, i) => (p * 1024) / requests[i]!)) };
    };
    const heap = growth("heap");
    const rss = growth("rss");
    const show = (of: "heap" | "rss", g: ReturnType<typeof growth>) =>
      `${of} ${levels.map((l) => (l[of] / mib).toFixed(1)).join("→")} MiB (${g.phases.map((p) => p.toFixed(1)).join(" / ")}, ${g.perRequestKiB.toFixed(2)} KiB per request at the least)`;
    const worst = Math.max(...healthyMs);
    const p50 = [...healthyMs].sort((x, y) => x - y)[Math.floor(healthyMs.length / 2)]!;
    record({
      category: `load ${clients} streams ${durationMs / 1000} s`,
      cases: tally.completed + tally.rejected + tally.errors.length + second.completed + second.rejected + second.errors.length,
      failures: tally.errors.length + second.errors.length + healthyFailures,
      notes:
        `${tally.completed} + ${second.completed} completed, ${tally.rejected + second.rejected} queue-full 429, ${tally.tokens + second.tokens} chunks; ` +
        `after GC: ${show("heap", heap)}, ${show("rss", rss)}; ` +
        `healthy client p50 ${p50} ms, worst ${worst} ms; idle ${settleMs} ms after`,
    });
    assert.deepEqual([...tally.errors, ...second.errors].slice(0, 10), [], `${tally.errors.length + second.errors.length} requests failed or were lost`);
    assert.ok(tally.completed > clients, `${tally.completed} requests completed`);
    assert.ok(after.requests - before.requests >= tally.completed, "the server counted every completed request");
    assert.equal(after.sequences.busy, 0);
    assert.equal(after.sequences.waiting, 0);
    assert.equal(healthyFailures, 0, "the healthy client was always served");
    assert.ok(heap.perRequestKiB <= heapLeakKiBPerRequest, `the JS heap grew in both loads: ${show("heap", heap)}`);
    assert.ok(rss.leak <= rssLeakMiB, `resident memory grew in both loads: ${show("rss", rss)}`);
    assert.ok(rss.total <= oneTimeStepMiB + rssLeakMiB, `resident memory grew ${rss.total.toFixed(1)} MiB over both loads: ${show("rss", rss)}`);
  });
});
