// Typing replay: a recorded typing session (test/fixtures/typing) replayed key by key, with the
// editor's auto-closing of brackets and quotes, through the real completion pipeline, the real API
// client and the real local server on the large generated model; against a baseline without cache,
// type-through, request reuse, adaptive debounce or warm-ups. Then the same session on a model
// declaring the other fill-in-the-middle layout (how much of each prompt the server evaluates), and
// the first suggestion in each file, cold and with the prompt warmed when the file was opened.
// Run with `npx tsx bench/typing-replay.bench.ts` (or `npm run bench`). WISP_BENCH_LAYOUTS lists the
// layouts, the first one being the main run's (default "spm,psm").
import { WispClient } from "../src/client/wisp-client";
import { defaultBudget } from "../src/core/completion/context";
import { CompletionPipeline } from "../src/core/completion/pipeline";
import { planRequest } from "../src/core/completion/request-plan";
import type { CompletionSettings, CompletionStream } from "../src/core/completion/types";
import { clientCompletionStream } from "../src/extension/completion/client-stream";
import { firstSuggestionLatencies } from "./typing/first-suggestion";
import { startLocalServer, type EngineMetrics, type FimLayout, type LocalServer } from "./typing/local-server";
import { loadSession, replay, type Completer, type ReplayStats } from "./typing/replay";
import { fmt, percentile, printTable } from "./typing/table";

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
  /** The server process's CPU time over the replay (ms). */
  cpuMs: number;
}

const settings: CompletionSettings = { model: "", template: "auto", maxTokens: 48, debounceMs: 120 };
const layouts = (process.env.WISP_BENCH_LAYOUTS ?? "spm,psm").split(",") as FimLayout[];
/** How long the user looks at a file they opened before typing. */
const readMs = 1500;

/** The network seam with counters, as the pipeline sees it; warm-ups are not counted as requests. */
function counted(inner: CompletionStream, counters: StreamCounters): CompletionStream {
  return async function* (req, signal) {
    if (req.maxTokens === 0) return yield* inner(req, signal);
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

/** Baseline: a fresh pipeline per keystroke, so nothing is cached, reused or adapted, nothing warmed. */
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

function wisp(stream: CompletionStream, s: CompletionSettings): Completer {
  const pipeline = new CompletionPipeline({ stream, settings: () => s });
  return { complete: (input, signal) => pipeline.complete(input, signal), opened: (input) => pipeline.warm(input) };
}

const delta = (after: EngineMetrics, before: EngineMetrics): EngineMetrics => ({
  requests: after.requests - before.requests,
  aborted: after.aborted - before.aborted,
  promptTokensEvaluated: after.promptTokensEvaluated - before.promptTokensEvaluated,
  promptTokensCached: after.promptTokensCached - before.promptTokensCached,
  completionTokens: after.completionTokens - before.completionTokens,
});

const { session, texts } = loadSession("test/fixtures/typing");
const s0 = { ...settings };

/** A server on `layout`, its model loaded, and the pipeline's network seam to it. */
async function serve(layout: FimLayout): Promise<{ server: LocalServer; network: CompletionStream; s: CompletionSettings }> {
  const server = await startLocalServer(layout);
  const client = new WispClient({ baseUrl: server.baseUrl, apiKey: server.apiKey });
  const network = clientCompletionStream(async () => client);
  const s = { ...s0, model: server.model };
  for await (const _ of network({ model: s.model, prompt: "warm up", maxTokens: 4, temperature: 0, stop: [] }, new AbortController().signal)) void _;
  return { server, network, s };
}

async function measure(server: LocalServer, network: CompletionStream, makeCompleter: (stream: CompletionStream) => Completer): Promise<Run> {
  const requests: StreamCounters = { sent: 0, completed: 0, cancelled: 0, cut: 0 };
  const before = await server.metrics();
  const cpuBefore = server.cpuMs();
  const stats = await replay(session, texts, makeCompleter(counted(network, requests)));
  await new Promise((done) => setTimeout(done, 500)); // let the server count the last aborts
  return { stats, requests, engine: delta(await server.metrics(), before), cpuMs: server.cpuMs() - cpuBefore };
}

const evaluatedShare = (r: Run) => r.engine.promptTokensEvaluated / (r.engine.promptTokensEvaluated + r.engine.promptTokensCached);
const [main, ...others] = layouts as [FimLayout, ...FimLayout[]];
console.log(`typing replay: ${session.keystrokes} keystrokes over ${session.segments.length} files (auto-closing on), debounce ${s0.debounceMs} ms, max ${s0.maxTokens} tokens`);

const { server, network, s } = await serve(main);
let base: Run;
let ours: Run;
const firstLine: number[] = [];
try {
  console.log(`main run: model ${s.model}, ${main === "spm" ? "suffix-first" : "prefix-suffix-middle"} layout`);
  base = await measure(server, network, (stream) => stateless(stream, s));
  ours = await measure(server, network, (stream) => wisp(stream, s));
  // The server alone on the same requests: time to the first line (single-line requests stop there).
  for (const input of ours.stats.pauseInputs) {
    const plan = planRequest(input, s, [], defaultBudget);
    const started = performance.now();
    let text = "";
    for await (const piece of network(plan.request, new AbortController().signal)) {
      text += piece;
      if (text.trimStart().includes("\n")) break;
    }
    firstLine.push(performance.now() - started);
  }
} finally {
  await server.stop();
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
  ["evaluated / prompt length", evaluatedShare, 3],
  ["completion tokens generated", (r) => r.engine.completionTokens, 0],
  ["server CPU time (s)", (r) => r.cpuMs / 1000, 1],
  ["pauses", (r) => r.stats.pauses, 0],
  ["pauses with ghost text", (r) => r.stats.pauseLatencies.length, 0],
  ["p50 pause -> ghost text (ms)", (r) => percentile(r.stats.pauseLatencies, 0.5), 0],
  ["p95 pause -> ghost text (ms)", (r) => percentile(r.stats.pauseLatencies, 0.95), 0],
];
printTable(["metric", "baseline", "wisp", "wisp/baseline"], rows.map(([name, f, d]) => [name, fmt(f(base), d), fmt(f(ours), d), fmt(f(ours) / f(base), 2)]));
console.log(`\noutcomes, baseline: ${JSON.stringify(base.stats.outcomes)}`);
console.log(`outcomes, wisp:     ${JSON.stringify(ours.stats.outcomes)}`);

// The other layouts: the same session through the same pipeline, on a model declaring each.
const byLayout: Array<[FimLayout, Run]> = [[main, ours]];
for (const layout of others) {
  const other = await serve(layout);
  try {
    byLayout.push([layout, await measure(other.server, other.network, (stream) => wisp(stream, other.s))]);
  } finally {
    await other.server.stop();
  }
}
const layoutName = (l: FimLayout) => (l === "spm" ? "suffix first (<suf>S<pre>P<mid>)" : "prefix-suffix-middle");
printTable(
  ["FIM layout (wisp pipeline)", "evaluated / prompt", "prompt tokens evaluated", "requests/keystroke", "p50 pause -> ghost (ms)"],
  byLayout.map(([l, r]) => [layoutName(l), evaluatedShare(r), r.engine.promptTokensEvaluated, r.requests.sent / r.stats.keystrokes, percentile(r.stats.pauseLatencies, 0.5)]),
  [0, 3, 0, 3, 0],
);

// The first suggestion per file, on a fresh server each time: cold, then with the prompt warmed on open.
const first = { cold: [] as number[], warmed: [] as number[] };
for (const round of ["cold", "warmed", "cold", "warmed"] as const) {
  const fresh = await serve(main);
  try {
    first[round].push(...(await firstSuggestionLatencies(session, texts, wisp(fresh.network, fresh.s), round === "warmed", readMs)));
  } finally {
    await fresh.server.stop();
  }
}
printTable(
  ["first suggestion in a file", "files", "p50 (ms)", "max (ms)"],
  (["cold", "warmed"] as const).map((k) => [k === "cold" ? "cold (nothing evaluated yet)" : `warmed when opened (${readMs} ms before typing)`, first[k].length, percentile(first[k], 0.5), Math.max(...first[k])]),
);

const ttfl = percentile(firstLine, 0.5);
const p50 = percentile(ours.stats.pauseLatencies, 0.5);
const rpk = ours.requests.sent / ours.stats.keystrokes;
const share = evaluatedShare(ours);
const check = (ok: boolean) => (ok ? "met" : "MISSED");
console.log(`\nserver alone, time to first line: p50 ${fmt(ttfl)} ms, p95 ${fmt(percentile(firstLine, 0.95))} ms over ${firstLine.length} pause requests`);
// A request per keystroke is the no-debounce floor; between words Wisp asks early (ghost text
// at once in a pause) and saves its requests inside words: at most 0.6x the floor's.
console.log(`target requests/keystroke <= 0.6 (the no-debounce floor sends 1): ${fmt(rpk, 3)} ${check(rpk <= 0.6)}`);
console.log(`target evaluated/prompt <= 0.15: ${fmt(share, 3)} ${check(share <= 0.15)}`);
console.log(`target every type-through served from cache: ${ours.stats.typeThroughServed}/${ours.stats.typeThroughKeys} ${check(ours.stats.typeThroughServed === ours.stats.typeThroughKeys)}`);
console.log(`target p50 <= debounce + 1.2 x first line = ${fmt(s.debounceMs + 1.2 * ttfl)} ms: ${fmt(p50)} ms ${check(p50 <= s.debounceMs + 1.2 * ttfl)}`);
console.log(`first suggestion warmed / cold: ${fmt(percentile(first.warmed, 0.5) / percentile(first.cold, 0.5), 2)}`);
