// What wisp-server in front of an upstream engine costs: the same streamed requests sent to an
// upstream wisp-server directly and through a gateway wisp-server (--upstream, --no-local-models),
// interleaved in one run. Prints time to first token, streaming rate and 64 concurrent streams.
// On a shared machine the load drifts: each round sends one request each way, back to back, and
// the overhead is the median over rounds of that pair's difference (or ratio).
// Run with `npx tsx bench/upstream-proxy.bench.ts` (or `npm run bench`; needs `npm run build`).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { getLlama, type Token } from "node-llama-cpp";
import { TINY_LLAMA_SIZES } from "../src/server/models/tiny-llama";
import { writeTinyLlamaGguf } from "../src/server/models/write-tiny-llama";
import { timedCompletion, type StreamTiming } from "./engine/stream-timing";
import { startWispServer, type LocalServer } from "./typing/local-server";
import { percentile, printTable } from "./typing/table";

const MODEL = TINY_LLAMA_SIZES.large.name;
const MODEL_FILE = path.resolve(".cache/models", `${MODEL}.gguf`);
const ROUNDS = { ttft: 40, rate: 12 };
const CONCURRENT = 64;
const WARM_UP = 50;

if (!existsSync(MODEL_FILE)) {
  console.log(`generating ${MODEL_FILE} (once)...`);
  await mkdir(path.dirname(MODEL_FILE), { recursive: true });
  await writeTinyLlamaGguf(MODEL_FILE, "large");
}

// End-of-generation tokens banned, so every stream makes exactly max_tokens tokens.
const llama = await getLlama({ gpu: false, build: "never", logLevel: "error" as never });
const model = await llama.loadModel({ modelPath: MODEL_FILE });
const neverEnd = Object.fromEntries((model.fileInfo.metadata.tokenizer.ggml.tokens as string[]).flatMap((_, t) => (model.isEogToken(t as Token) ? [[String(t), -100]] : [])));
await model.dispose();

/**
 * CPU time a process has used (all its threads: JS, compiler, file system pool), ms. From the
 * scheduler's nanosecond count: /proc/PID/stat counts 10 ms ticks, as coarse as a whole request.
 */
function cpuMs(pid: number | undefined): number {
  return readdirSync(`/proc/${pid}/task`).reduce((sum, task) => {
    try {
      return sum + Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]) / 1e6;
    } catch {
      return sum; // a thread that ended meanwhile
    }
  }, 0);
}

/** An OpenAI-style server the client calls: its /v1, key and the model id it serves. */
interface Endpoint {
  baseUrl: string;
  apiKey: string;
  model: string;
}

type Side = { name: string; endpoint: Endpoint };

// Clients keep their connections, as an editor does.
const keptConnections = new http.Agent({ keepAlive: true, maxSockets: Infinity });

/** The same requests straight to `upstream` and through `gateway` (which serves only it). */
async function compare(label: string, upstream: Endpoint, gateway: LocalServer, agent: http.Agent): Promise<void> {
  const sides: Side[] = [
    { name: "direct", endpoint: upstream },
    { name: "through wisp-server", endpoint: gateway },
  ];
  const run = (side: Side, body: Record<string, unknown>) => timedCompletion(side.endpoint.baseUrl, side.endpoint.apiKey, { model: side.endpoint.model, temperature: 0, ...body }, agent);
  // A server in use has run its request path many times over (its code compiled, not interpreted).
  for (let i = 0; i < WARM_UP; i++) for (const side of sides) await run(side, { prompt: `warm up ${i}`, max_tokens: 4 });

  // Interleaved, the order switching each round, so drift of the machine hits both sides alike.
  const measure = async (rounds: number, body: Record<string, unknown>) => {
    const timings = new Map<string, StreamTiming[]>(sides.map((s) => [s.name, []]));
    for (let round = 0; round < rounds; round++) {
      for (const side of round % 2 ? [...sides].reverse() : sides) timings.get(side.name)!.push(await run(side, { ...body, prompt: `round ${round}: the quick brown fox` }));
    }
    return timings;
  };
  // The gateway's own CPU time: what proxying costs, whatever the load of the machine.
  let cpu = cpuMs(gateway.pid);
  const first = await measure(ROUNDS.ttft, { max_tokens: 4 });
  const cpuPerRequest = (cpuMs(gateway.pid) - cpu) / ROUNDS.ttft;
  cpu = cpuMs(gateway.pid);
  const stream = await measure(ROUNDS.rate, { max_tokens: 200, logit_bias: neverEnd });
  const cpuPerToken = (cpuMs(gateway.pid) - cpu) / (ROUNDS.rate * 200);

  const concurrent = async (side: Side) => {
    const t0 = performance.now();
    const results = await Promise.allSettled(Array.from({ length: CONCURRENT }, (_, i) => run(side, { prompt: `stream ${i}`, max_tokens: 16, logit_bias: neverEnd })));
    const ok = results.filter((r) => r.status === "fulfilled" && r.value.tokens === 16).length;
    return { ok, errors: CONCURRENT - ok, seconds: (performance.now() - t0) / 1000 };
  };
  const together = new Map<string, { ok: number; errors: number; seconds: number }>();
  for (const side of sides) together.set(side.name, await concurrent(side));

  const p50 = (name: string, pick: (t: StreamTiming) => number, map: Map<string, StreamTiming[]>) => percentile(map.get(name)!.map(pick), 0.5);
  const rows = sides.map((s) => [
    s.name,
    p50(s.name, (t) => t.ttft, first),
    percentile(first.get(s.name)!.map((t) => t.ttft), 0.9),
    p50(s.name, (t) => t.rate, stream),
    `${together.get(s.name)!.ok}/${CONCURRENT}`,
    together.get(s.name)!.seconds,
  ]);
  console.log(`\nUpstream proxy overhead, ${label} (${ROUNDS.ttft} first-token rounds, ${ROUNDS.rate} streams of 200 tokens, ${CONCURRENT} concurrent streams of 16 tokens)`);
  printTable(["", "TTFT p50 ms", "TTFT p90 ms", "stream tok/s p50", `${CONCURRENT} streams ok`, `${CONCURRENT} streams s`], rows, [0, 2, 2, 1, 0, 2]);
  const [direct, proxied] = sides.map((s) => s.name);
  const paired = (map: Map<string, StreamTiming[]>, pair: (proxy: StreamTiming, straight: StreamTiming) => number) =>
    percentile(map.get(proxied!)!.map((t, round) => pair(t, map.get(direct!)![round]!)), 0.5);
  const ttftDelta = paired(first, (p, d) => p.ttft - d.ttft);
  const rateRatio = paired(stream, (p, d) => p.rate / d.rate);
  printTable(
    ["through wisp-server vs direct", "measured", "target"],
    [
      ["TTFT added (median of rounds)", `${ttftDelta >= 0 ? "+" : ""}${ttftDelta.toFixed(2)} ms`, "< +2 ms"],
      ["streaming rate (median of rounds)", `${rateRatio.toFixed(3)}x`, ">= 0.98x"],
      ["gateway CPU per short request", `${cpuPerRequest.toFixed(2)} ms`, ""],
      ["gateway CPU per streamed token", `${(cpuPerToken * 1000).toFixed(0)} µs`, ""],
      [`${CONCURRENT} concurrent streams, errors`, String(together.get(proxied!)!.errors), "0"],
    ],
  );
}

/** A gateway wisp-server serving only `upstream`'s models. */
function gatewayFor(upstream: Endpoint, keyEnv?: string): Promise<LocalServer> {
  const spec = `engine=${upstream.baseUrl}${keyEnv ? `,key-env=${keyEnv}` : ""}`;
  return startWispServer(MODEL_FILE, MODEL, ["--no-local-models", "--upstream", spec]);
}

try {
  // Without prompt reuse: the second of a round's pair (the same prompt) would otherwise start from
  // the tokens the first left evaluated, and get its first token in half the time.
  const upstream = await startWispServer(MODEL_FILE, MODEL, ["--parallel", "2", "--max-queue", String(CONCURRENT), "--no-prefix-reuse"]);
  process.env.WISP_BENCH_UPSTREAM_KEY = upstream.apiKey;
  const gateway = await gatewayFor(upstream, "WISP_BENCH_UPSTREAM_KEY");
  try {
    await compare(`${MODEL} on an upstream wisp-server --parallel 2`, upstream, gateway, keptConnections);
  } finally {
    await gateway.stop();
    await upstream.stop();
  }
} finally {
  keptConnections.destroy();
}
