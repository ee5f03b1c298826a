// Typing replay: a recorded typing session (test/fixtures/typing) replayed key by key through the
// real completion pipeline, the real API client and the real local server on the large generated
// model; against a baseline without cache, type-through, request reuse or adaptive debounce.
// Run with `npx tsx bench/typing-replay.bench.ts` (or `npm run bench`).
import { WispClient } from "../src/client/wisp-client";
import { defaultBudget } from "../src/core/completion/context";
import { CompletionPipeline } from "../src/core/completion/pipeline";
import { planRequest } from "../src/core/completion/request-plan";
import type { CompletionSettings, CompletionStream } from "../src/core/completion/types";
import { clientCompletionStream } from "../src/extension/completion/client-stream";
import { startLocalServer, type EngineMetrics } from "./typing/local-server";
import { loadSession, replay, type Completer, type ReplayStats } from "./typing/replay";

interface StreamCounters {
  sent: number;
  completed: number;
  /** Aborted because the result could no longer be used. */
  cancelled: number;
  /** Stopped by the pipeline once it had what it needed (a newline, a stop token). */
  cut: number;
}

interface Run {
  stats: ReplayStats;
  requests: StreamCounters;
  engine: EngineMetrics;
}

const settings: CompletionSettings = { model: "", template: "auto", maxTokens: 48, debounceMs: 120 };
const percentile = (xs: number[], p: number) => (xs.length === 0 ? NaN : [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!);
const fmt = (x: number, digits = 0) => (Number.isFinite(x) ? x.toFixed(digits) : "-");

/** The network seam with counters, as the pipeline sees it. */
function counted(inner: CompletionStream, counters: StreamCounters): CompletionStream {
  return async function* (req, signal) {
    counters.sent++;
    let done = false;
    try {
      yield* inner(req, signal);
      done = true;
    } finally {
      if (done) counters.completed++;
      else if (signal.aborted) counters.cancelled++;
      else counters.cut++;
    }
  };
}

/** Baseline: a fresh pipeline per keystroke, so nothing is cached, reused or adapted. */
function stateless(stream: CompletionStream, s: CompletionSettings): Completer {
  let current: CompletionPipeline | undefined;
  return {
    complete(input, signal) {
      current?.dispose();
      current = new CompletionPipeline({ stream, settings: () => s });
      return current.complete(input, signal);
    },
  };
}

const delta = (after: EngineMetrics, before: EngineMetrics): EngineMetrics => ({
  requests: after.requests - before.requests,
  aborted: after.aborted - before.aborted,
  promptTokensEvaluated: after.promptTokensEvaluated - before.promptTokensEvaluated,
  promptTokensCached: after.promptTokensCached - before.promptTokensCached,
  completionTokens: after.completionTokens - before.completionTokens,
});

const server = await startLocalServer();
try {
  const client = new WispClient({ baseUrl: server.baseUrl, apiKey: server.apiKey });
  const network = clientCompletionStream(async () => client);
  const s = { ...settings, model: server.model };
  const { session, texts } = loadSession("test/fixtures/typing");
  console.log(`typing replay: ${session.keystrokes} keystrokes over ${session.segments.length} files, model ${s.model}, debounce ${s.debounceMs} ms, max ${s.maxTokens} tokens`);
  for await (const _ of network({ model: s.model, prompt: "warm up", maxTokens: 4, temperature: 0, stop: [] }, new AbortController().signal)) void _;

  const measure = async (makeCompleter: (stream: CompletionStream) => Completer): Promise<Run> => {
    const requests: StreamCounters = { sent: 0, completed: 0, cancelled: 0, cut: 0 };
    const before = await server.metrics();
    const stats = await replay(session, texts, makeCompleter(counted(network, requests)));
    await new Promise((done) => setTimeout(done, 500)); // let the server count the last aborts
    return { stats, requests, engine: delta(await server.metrics(), before) };
  };
  const base = await measure((stream) => stateless(stream, s));
  const wisp = await measure((stream) => {
    const pipeline = new CompletionPipeline({ stream, settings: () => s });
    return { complete: (input, signal) => pipeline.complete(input, signal) };
  });

  // The server alone on the same requests: time to the first line (single-line requests stop there).
  const firstLine: number[] = [];
  for (const input of wisp.stats.pauseInputs) {
    const plan = planRequest(input, s, [], defaultBudget);
    const started = performance.now();
    let text = "";
    for await (const delta of network(plan.request, new AbortController().signal)) {
      text += delta;
      if (text.trimStart().includes("\n")) break;
    }
    firstLine.push(performance.now() - started);
  }

  const servedLocally = (r: Run) => Object.entries(r.stats.outcomes).filter(([k]) => /^shown:(cache|type-through|reused)$/.test(k)).reduce((a, [, n]) => a + n, 0);
  const rows: Array<[string, (r: Run) => number, number]> = [
    ["keystrokes (provider calls)", (r) => r.stats.keystrokes, 0],
    ["requests sent", (r) => r.requests.sent, 0],
    ["requests per keystroke", (r) => r.requests.sent / r.stats.keystrokes, 3],
    ["requests aborted (result unusable)", (r) => r.requests.cancelled, 0],
    ["requests stopped early (got what it needed)", (r) => r.requests.cut, 0],
    ["server: requests aborted", (r) => r.engine.aborted, 0],
    ["ghost text without a request (cache, type-through, reuse)", servedLocally, 0],
    ["type-through keys", (r) => r.stats.typeThroughKeys, 0],
    ["type-through keys served without a request", (r) => r.stats.typeThroughServed, 0],
    ["prompt tokens evaluated", (r) => r.engine.promptTokensEvaluated, 0],
    ["prompt tokens (evaluated + reused)", (r) => r.engine.promptTokensEvaluated + r.engine.promptTokensCached, 0],
    ["evaluated / prompt length", (r) => r.engine.promptTokensEvaluated / (r.engine.promptTokensEvaluated + r.engine.promptTokensCached), 3],
    ["pauses", (r) => r.stats.pauses, 0],
    ["pauses with ghost text", (r) => r.stats.pauseLatencies.length, 0],
    ["p50 pause -> ghost text (ms)", (r) => percentile(r.stats.pauseLatencies, 0.5), 0],
    ["p95 pause -> ghost text (ms)", (r) => percentile(r.stats.pauseLatencies, 0.95), 0],
  ];
  const table = [["metric", "baseline", "wisp", "wisp/baseline"], ...rows.map(([name, f, d]) => [name, fmt(f(base), d), fmt(f(wisp), d), fmt(f(wisp) / f(base), 2)])];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
  console.log();
  table.forEach((r, n) => {
    console.log(r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  "));
    if (n === 0) console.log(widths.map((w) => "-".repeat(w)).join("  "));
  });
  console.log(`\noutcomes, baseline: ${JSON.stringify(base.stats.outcomes)}`);
  console.log(`outcomes, wisp:     ${JSON.stringify(wisp.stats.outcomes)}`);

  const ttfl = percentile(firstLine, 0.5);
  const p50 = percentile(wisp.stats.pauseLatencies, 0.5);
  const rpk = wisp.requests.sent / wisp.stats.keystrokes;
  const check = (ok: boolean) => (ok ? "met" : "MISSED");
  console.log(`\nserver alone, time to first line: p50 ${fmt(ttfl)} ms, p95 ${fmt(percentile(firstLine, 0.95))} ms over ${firstLine.length} pause requests`);
  console.log(`target requests/keystroke <= 0.15: ${fmt(rpk, 3)} ${check(rpk <= 0.15)}`);
  console.log(`target every type-through served from cache: ${wisp.stats.typeThroughServed}/${wisp.stats.typeThroughKeys} ${check(wisp.stats.typeThroughServed === wisp.stats.typeThroughKeys)}`);
  console.log(`target p50 <= debounce + 1.2 x first line = ${fmt(s.debounceMs + 1.2 * ttfl)} ms: ${fmt(p50)} ms ${check(p50 <= s.debounceMs + 1.2 * ttfl)}`);
} finally {
  await server.stop();
}
