// The local server's text engine against llama.cpp's own llama-server, side by side on the same
// GGUF files (~34M and ~151M parameters, q8_0, made by the project's writer), one thread each,
// through /v1/completions with streaming at temperature 0, runs interleaved (and the local server
// with --no-native-step, the path before decode-step, as a third side). Prints medians with
// their spread and the ratios. Needs LLAMA_SERVER=/path/to/llama-server (a build of the llama.cpp
// source node-llama-cpp bundles, see docs/benchmarks.md); without it the comparison is skipped.
// Run with `npx tsx bench/engine-vs-llama-server.bench.ts` (or `npm run bench`).
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { getLlama, type Token } from "node-llama-cpp";
import { TRAINING_CORPUS } from "../src/server/models/corpus";
import { TINY_LLAMA_SIZES, type TinyLlamaSize } from "../src/server/models/tiny-llama";
import { writeTinyLlamaGguf } from "../src/server/models/write-tiny-llama";
import { cpuPin } from "./engine/cpu-pin";
import { startLlamaServer } from "./engine/llama-server";
import { closeTimingAgent, timedCompletion, type StreamTiming } from "./engine/stream-timing";
import { startWispServer } from "./typing/local-server";
import { percentile, printTable } from "./typing/table";

const binary = process.env.LLAMA_SERVER;
if (!binary || !existsSync(binary)) {
  console.log("engine vs llama-server: skipped the comparison (set LLAMA_SERVER to a llama-server binary built from node_modules/node-llama-cpp/llama/gitRelease.bundle; docs/benchmarks.md says how)");
  process.exit(0);
}
const RUNS = Number(process.env.ENGINE_BENCH_RUNS ?? 9);
const THREADS = 1;
const CONTEXT = 4096;
const SIZES = (process.env.ENGINE_BENCH_SIZES ?? "34m,151m").split(",") as TinyLlamaSize[];
const median = (xs: number[]) => percentile(xs, 0.5);
const spread = (xs: number[], digits: number) => `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)})`;

const pin = cpuPin();
const llama = await getLlama({ gpu: false, build: "never", logLevel: "error" as never });
for (const size of SIZES) {
  const spec = TINY_LLAMA_SIZES[size];
  const file = path.resolve(".cache/models", `${spec.name}.gguf`);
  if (!existsSync(file)) {
    console.log(`generating ${file} (once)...`);
    await writeTinyLlamaGguf(file, size);
  }
  const vocab = await llama.loadModel({ modelPath: file, vocabOnly: true });
  // Random weights write random bytes, which llama-server's output parser refuses (invalid
  // UTF-8): both servers get the same bias against every token that is not printable ASCII.
  const banned: Record<string, number> = {};
  for (let id = 0; id < vocab.fileInfo.metadata.tokenizer.ggml.tokens.length; id++) {
    const text = vocab.detokenize([id as Token], true);
    if (vocab.isEogToken(id as Token) || !/^[\x20-\x7e\n]+$/.test(text)) banned[String(id)] = -100;
  }
  const corpus = vocab.tokenize(TRAINING_CORPUS.repeat(8), false);
  const promptOf = (length: number, shift: number) => corpus.slice(shift, shift + length);
  const flags = ["--threads", String(THREADS), "--parallel", "1", "--ctx-size", String(CONTEXT)];
  const wisp = await startWispServer(file, spec.name, flags, pin);
  // The same server with generation steps on node-llama-cpp's thread pool (--no-native-step).
  const pooled = await startWispServer(file, spec.name, [...flags, "--no-native-step"], pin);
  const native = await startLlamaServer(binary, file, { threads: THREADS, contextSize: CONTEXT, pin });
  const sides = [
    { name: "wisp-server", run: (body: Record<string, unknown>) => timedCompletion(wisp.baseUrl, wisp.apiKey, { model: spec.name, ...body }) },
    { name: "llama-server", run: (body: Record<string, unknown>) => timedCompletion(native.baseUrl, "none", { model: spec.name, ...body }) },
    { name: "--no-native-step", run: (body: Record<string, unknown>) => timedCompletion(pooled.baseUrl, pooled.apiKey, { model: spec.name, ...body }) },
  ];
  const greedy = { temperature: 0, top_p: 1, logit_bias: banned };
  const results = sides.map(() => ({ gen: [] as number[], prompt: [] as number[], replay: [] as number[] }));
  for (const side of sides) await side.run({ ...greedy, prompt: promptOf(32, 0), max_tokens: 8 }); // loads, warms
  const base = vocab.detokenize(promptOf(400, 3));
  const typed = "\nexport function sumOfSquares(values: number[]): number {\n  return values.reduce((sum, v) => sum + v * v, 0);";
  for (let run = 0; run < RUNS; run++) {
    // Rotating which side goes first, so none always meets another's leftovers.
    const order = [0, 1, 2].map((i) => (i + run) % 3);
    for (const s of order) results[s]!.gen.push((await sides[s]!.run({ ...greedy, prompt: promptOf(16, run + 1), max_tokens: 256 })).rate);
    for (const s of order) {
      const t: StreamTiming = await sides[s]!.run({ ...greedy, prompt: promptOf(600, 100 + run), max_tokens: 1 });
      results[s]!.prompt.push((600 * 1000) / t.ttft);
    }
    // Keystroke replay: each request the previous prompt plus one typed character.
    for (const s of order) {
      const latencies: number[] = [];
      for (let i = 1; i <= 20; i++) latencies.push((await sides[s]!.run({ ...greedy, prompt: `${base}${"\n".repeat(run)}${typed.slice(0, i + run)}`, max_tokens: 8 })).total);
      results[s]!.replay.push(median(latencies));
    }
  }
  const [w, n, p] = results as [(typeof results)[0], (typeof results)[0], (typeof results)[0]];
  // Each run measures the sides back to back, so the ratio is taken per run and its median shown:
  // the host's speed drifts between runs far more than within one.
  const ratio = (a: number[], b: number[]) => {
    const perRun = a.map((x, i) => x / b[i]!);
    return `${median(perRun).toFixed(3)}x (${Math.min(...perRun).toFixed(2)}-${Math.max(...perRun).toFixed(2)})`;
  };
  console.log(`\n${spec.name} (q8_0, ${(statSync(file).size / 2 ** 20).toFixed(0)} MiB), ${THREADS} thread, ${pin.note}, median (min-max) of ${RUNS} interleaved runs; ratios: median (min-max) of the runs' own`);
  printTable(["metric", "wisp-server", "llama-server", "ratio", "target", "--no-native-step", "its ratio"], [
    ["generation tok/s (256 tokens)", spread(w.gen, 1), spread(n.gen, 1), ratio(w.gen, n.gen), ">= 0.97x", spread(p.gen, 1), ratio(p.gen, n.gen)],
    ["prompt tok/s (600 tokens)", spread(w.prompt, 0), spread(n.prompt, 0), ratio(w.prompt, n.prompt), ">= 1.0x", spread(p.prompt, 0), ratio(p.prompt, n.prompt)],
    ["keystroke replay p50 ms (8 tokens)", spread(w.replay, 1), spread(n.replay, 1), ratio(n.replay, w.replay), "speed, >= 1.0x", spread(p.replay, 1), ratio(n.replay, p.replay)],
  ]);
  await wisp.stop();
  await pooled.stop();
  await native.stop();
  await vocab.dispose();
}
closeTimingAgent();
await llama.dispose();
