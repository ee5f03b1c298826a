import assert from "node:assert/strict";
import { generateCases, type FuzzCase } from "./fuzz-cases";
import { errorShapeProblem, startReliabilityServer, untilIdle, type ReliabilityServer } from "./reliability-server";
import { fullRun, record, scaled } from "./report";

const seed = Number(process.env.WISP_FUZZ_SEED ?? 20261122);
/** A case still running after this is dropped by the client (a disconnect, which the server must also survive). */
const caseTimeoutMs = 4000;

interface Outcome {
  status: number | "timeout";
  problem?: string;
}

async function send(server: ReliabilityServer, c: FuzzCase): Promise<Outcome> {
  try {
    const response = await fetch(server.origin + c.path, { method: c.method, headers: c.headers, body: c.body, signal: AbortSignal.timeout(caseTimeoutMs) });
    const text = await response.text();
    if (response.status >= 500 && response.status !== 503) return { status: response.status, problem: `server error: ${text.slice(0, 200)}` };
    if (response.status >= 400) {
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return { status: response.status, problem: `error body is not JSON: ${text.slice(0, 200)}` };
      }
      const problem = errorShapeProblem(body);
      return problem ? { status: response.status, problem: `${problem}: ${text.slice(0, 200)}` } : { status: response.status };
    }
    return { status: response.status };
  } catch (error) {
    if ((error as Error).name === "TimeoutError") return { status: "timeout" };
    return { status: 0, problem: `connection failed: ${(error as Error).message} ${String((error as { cause?: unknown }).cause ?? "")}` };
  }
}

describe("fuzzing every endpoint (real server process)", function () {
  this.timeout(scaled(240_000, 900_000));
  let server: ReliabilityServer;
  before(async () => {
    server = await startReliabilityServer();
  });
  after(() => server?.stop());

  it(`answers every generated and mutated request without a 5xx, in the OpenAI error shape (seed ${seed})`, async () => {
    const count = scaled(600, 5000);
    const budgetMs = scaled(120_000, 600_000);
    const cases = generateCases(seed, count, server.key);
    const started = Date.now();
    const failures: string[] = [];
    const byEndpoint = new Map<string, { tried: number; failed: number; statuses: Map<string, number> }>();
    let tried = 0;
    // Four at a time: a client's normal concurrency, and generations queue on the server.
    const queue = [...cases.entries()];
    const worker = async () => {
      for (let next = queue.shift(); next && Date.now() - started < budgetMs; next = queue.shift()) {
        const [index, c] = next;
        const outcome = await send(server, c);
        tried++;
        const stats = byEndpoint.get(c.endpoint) ?? { tried: 0, failed: 0, statuses: new Map() };
        stats.tried++;
        if (outcome.problem) stats.failed++;
        stats.statuses.set(String(outcome.status), (stats.statuses.get(String(outcome.status)) ?? 0) + 1);
        byEndpoint.set(c.endpoint, stats);
        if (outcome.problem) failures.push(`#${index} ${c.method} ${c.path} [${c.mutation}] → ${outcome.status}: ${outcome.problem}`);
        if (!server.alive()) failures.push(`#${index} the server process died`);
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    const health = await fetch(`${server.origin}/health`);
    if (health.status !== 200) failures.push(`health after the run: ${health.status}`);
    await untilIdle(server, 30_000);
    for (const [endpoint, stats] of byEndpoint) {
      const statuses = [...stats.statuses].sort().map(([s, n]) => `${s}×${n}`).join(" ");
      record({ category: `fuzz ${endpoint}`, cases: stats.tried, failures: stats.failed, notes: statuses });
    }
    console.log(`      fuzz: ${tried} of ${count} cases in ${((Date.now() - started) / 1000).toFixed(0)} s (seed ${seed}${fullRun ? ", full" : ""})`);
    assert.ok(tried >= Math.min(count, 200), `only ${tried} cases ran within the time budget`);
    // What the server said besides its access log (an engine's own messages) tells why it failed.
    const said = server.output().split("\n").filter((line) => !/^[A-Z]+ \//.test(line));
    assert.deepEqual(failures.slice(0, 20), [], `${failures.length} failing cases; the server said:\n${said.slice(-20).join("\n")}`);
  });
});
