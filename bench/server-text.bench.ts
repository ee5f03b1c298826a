// Text server benchmark: HTTP server vs the same library in-process, on the large generated model.
// Prints tables; run with `npx tsx bench/server-text.bench.ts` (or `npm run bench`).
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import http from "node:http";
import { mkdir, mkdtemp, rm, symlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { getLlama, type LlamaContextSequence, type Token } from "node-llama-cpp";
import { evaluateOptions } from "../src/server/engines/text/sampling";
import type { SamplingSettings } from "../src/server/engines/text/types";
import { TRAINING_CORPUS } from "../src/server/models/corpus";
import { TINY_LLAMA_SIZES } from "../src/server/models/tiny-llama";
import { writeTinyLlamaGguf } from "../src/server/models/write-tiny-llama";
import { timedCompletion } from "./engine/stream-timing";

const MODEL_ID = TINY_LLAMA_SIZES.large.name;
const MODEL_FILE = path.resolve(".cache/models", `${MODEL_ID}.gguf`);
const CONTEXT = 2048;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (x: number, digits = 1) => x.toFixed(digits);

function printTable(title: string, header: string[], rows: (string | number)[][]): void {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)));
  console.log(`\n${title}`);
  cells.forEach((r, n) => {
    console.log(r.map((c, i) => c.padEnd(widths[i]!)).join("  "));
    if (n === 0) console.log(widths.map((w) => "-".repeat(w)).join("  "));
  });
}

if (!existsSync(MODEL_FILE)) {
  console.log(`generating ${MODEL_FILE} (once)...`);
  await writeTinyLlamaGguf(MODEL_FILE, "large");
}

const llama = await getLlama({ gpu: false, build: "never", logLevel: "error" as never });
const model = await llama.loadModel({ modelPath: MODEL_FILE });
const eog = (model.fileInfo.metadata.tokenizer.ggml.tokens as string[]).flatMap((_, t) => (model.isEogToken(t as Token) ? [t as Token] : []));
// Greedy, OpenAI defaults, end-of-generation banned so both sides produce exactly N tokens.
const sampling: SamplingSettings = { temperature: 0, topK: 0, topP: 1, presencePenalty: 0, frequencyPenalty: 0, logitBias: new Map(eog.map((t) => [t, -100])) };
const logitBiasBody = Object.fromEntries(eog.map((t) => [String(t), -100]));
const corpusTokens = model.tokenize(TRAINING_CORPUS.repeat(4), false);
const promptOf = (length: number, shift = 0) => corpusTokens.slice(shift, shift + length);

interface Run {
  /** ms from request to first generated token. */
  ttft: number;
  /** generated tokens per second after the first token. */
  genRate: number;
  tokens: number;
}

/** The in-process baseline: the same library and sampling options, no HTTP. */
async function inProcess(sequence: LlamaContextSequence, prompt: Token[], maxTokens: number): Promise<Run> {
  await sequence.clearHistory();
  const t0 = performance.now();
  let first = 0;
  let n = 0;
  const stream = sequence.evaluate(prompt, evaluateOptions(model, sampling, 0, []));
  for await (const _token of stream) {
    if (++n === 1) first = performance.now();
    if (n >= maxTokens) break;
  }
  const end = performance.now();
  return { ttft: first - t0, genRate: n > 1 ? ((n - 1) * 1000) / (end - first) : 0, tokens: n };
}

/** Streams a completion over HTTP (a light client on a kept-alive connection: the box has 2 cores to share). */
async function overHttp(origin: string, key: string, prompt: Token[], maxTokens: number): Promise<Run> {
  const body = { model: MODEL_ID, prompt, max_tokens: maxTokens, temperature: 0, top_p: 1, logit_bias: logitBiasBody };
  const { ttft, rate, tokens } = await timedCompletion(`${origin}/v1`, key, body, agent);
  return { ttft, genRate: rate, tokens };
}
const agent = new http.Agent({ keepAlive: true });

/** The real CLI in its own process, as users run it (the client must not share its event loop). */
async function startServer(threads: number, prefixReuse: boolean) {
  const dir = await mkdtemp(path.join(os.tmpdir(), "wisp-bench-"));
  await mkdir(path.join(dir, "models"));
  await symlink(MODEL_FILE, path.join(dir, "models", `${MODEL_ID}.gguf`));
  const args = ["--import", "tsx", "src/server/main.ts", "--port", "0", "--threads", String(threads), "--parallel", "1", "--ctx-size", String(CONTEXT)];
  args.push("--models-dir", path.join(dir, "models"), "--data-dir", path.join(dir, "data"), ...(prefixReuse ? [] : ["--no-prefix-reuse"]));
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  let output = "";
  const ready = new Promise<{ origin: string; key: string }>((resolve, reject) => {
    child.stdout.on("data", (bytes: Buffer) => {
      output += bytes.toString();
      const origin = /listening on (http:\/\/[\d.:]+)\/v1/.exec(output)?.[1];
      const key = /created API key \S+ \(default\): (\S+)/.exec(output)?.[1];
      if (origin && key) resolve({ origin, key });
    });
    child.once("exit", (code) => reject(new Error(`wisp-server exited (${code}): ${output}`)));
  });
  const { origin, key } = await ready;
  const close = async () => {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
    await rm(dir, { recursive: true, force: true });
  };
  return { origin, key, close };
}

// 1. Threads: decode and prompt speed in-process for each setting.
const threadRows: (string | number)[][] = [];
let fastest = { threads: 1, msPerToken: Infinity };
for (const threads of [1, 2]) {
  const context = await model.createContext({ contextSize: CONTEXT, sequences: 1, threads });
  const sequence = context.getSequence();
  await inProcess(sequence, promptOf(16), 8); // warm-up
  const decodeRuns: number[] = [];
  const promptRuns: number[] = [];
  for (let i = 0; i < 3; i++) {
    decodeRuns.push((await inProcess(sequence, promptOf(16, i), 128)).genRate);
    promptRuns.push(1000 / ((await inProcess(sequence, promptOf(1000, i), 1)).ttft / 1000));
  }
  const decode = median(decodeRuns);
  threadRows.push([threads, fmt(decode), fmt(1000 / decode, 2), fmt(median(promptRuns), 0)]);
  if (1000 / decode < fastest.msPerToken) fastest = { threads, msPerToken: 1000 / decode };
  await context.dispose();
}
printTable(`threads (in-process, ${MODEL_ID}, ${os.cpus().length} cores)`, ["threads", "gen tok/s", "ms/token", "prompt tok/s"], threadRows);
// Decode speed decides: prefix reuse leaves few prompt tokens per keystroke request.
const threads = fastest.threads;
console.log(`-> using ${threads} thread(s) below`);

// 2. HTTP (streaming) vs in-process, same model, threads, tokens and sampling.
const context = await model.createContext({ contextSize: CONTEXT, sequences: 1, threads });
const sequence = context.getSequence();
const fresh = await startServer(threads, false);
const genIn: Run[] = [];
const genHttp: Run[] = [];
const promptIn: number[] = [];
const promptHttp: number[] = [];
const ttftIn: number[] = [];
const ttftHttp: number[] = [];
await overHttp(fresh.origin, fresh.key, promptOf(16), 4); // loads the model
// Interleaved runs, medians: the machine is shared, so both sides see the same background load.
for (let i = 0; i < 9; i++) {
  genIn.push(await inProcess(sequence, promptOf(16, i), 256));
  genHttp.push(await overHttp(fresh.origin, fresh.key, promptOf(16, i), 256));
  promptIn.push(1000 / ((await inProcess(sequence, promptOf(1000, i), 1)).ttft / 1000));
  promptHttp.push(1000 / ((await overHttp(fresh.origin, fresh.key, promptOf(1000, i), 1)).ttft / 1000));
}
for (let i = 0; i < 25; i++) {
  ttftIn.push((await inProcess(sequence, promptOf(16, i), 1)).ttft);
  ttftHttp.push((await overHttp(fresh.origin, fresh.key, promptOf(16, i), 1)).ttft);
}
if (genIn.some((r, i) => r.tokens !== genHttp[i]!.tokens)) throw new Error("in-process and HTTP generated different token counts");
const best = (xs: number[], lowerIsBetter = false) => (lowerIsBetter ? Math.min(...xs) : Math.max(...xs));
// Medians show the typical run; bests show each side's speed with the least background noise.
const rows: [string, number[], number[], boolean][] = [
  ["generation tok/s (256 tokens)", genIn.map((r) => r.genRate), genHttp.map((r) => r.genRate), false],
  ["prompt tok/s (1000 tokens)", promptIn, promptHttp, false],
];
printTable(`HTTP server (streaming, separate process) vs in-process baseline, ${threads} thread(s), median | best of ${genIn.length}`, ["metric", "in-process", "HTTP", "ratio", "target"], [
  ...rows.map(([name, a, b]) => [name, `${fmt(median(a))} | ${fmt(best(a))}`, `${fmt(median(b))} | ${fmt(best(b))}`, `${fmt(median(b) / median(a), 3)}x | ${fmt(best(b) / best(a), 3)}x`, ">= 0.95x"]),
  [
    `time to first token ms (16-token prompt, ${ttftIn.length} runs)`,
    `${fmt(median(ttftIn), 2)} | ${fmt(best(ttftIn, true), 2)}`,
    `${fmt(median(ttftHttp), 2)} | ${fmt(best(ttftHttp, true), 2)}`,
    `+${fmt(median(ttftHttp) - median(ttftIn), 2)} | +${fmt(best(ttftHttp, true) - best(ttftIn, true), 2)} ms`,
    "< 5 ms",
  ],
]);
await context.dispose();

// 3. Keystroke replay: 50 requests, each the previous prompt plus one typed character.
const base = model.detokenize(promptOf(1000));
const typed = "\nexport function sumOfSquares(values: number[]): nu";
async function replay(server: { origin: string; key: string }) {
  const latencies: number[] = [];
  const evaluated: number[] = [];
  for (let i = 1; i <= 50; i++) {
    const t0 = performance.now();
    const response = await fetch(`${server.origin}/v1/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: MODEL_ID, prompt: base + typed.slice(0, i), max_tokens: 8, temperature: 0 }),
    });
    await response.json();
    latencies.push(performance.now() - t0);
    evaluated.push(Number(response.headers.get("x-wisp-prompt-tokens-evaluated")));
  }
  return { latency: median(latencies), evaluated: median(evaluated), total: evaluated.reduce((a, b) => a + b, 0) };
}
const reuse = await startServer(threads, true);
const withReuse = await replay(reuse);
const withoutReuse = await replay(fresh);
printTable(`keystroke replay: 50 completions on a ${model.tokenize(base).length}-token context, one character more each time`, ["mode", "median latency ms", "median prompt tokens evaluated", "total evaluated"], [
  ["without prefix reuse", fmt(withoutReuse.latency), withoutReuse.evaluated, withoutReuse.total],
  ["with prefix reuse", fmt(withReuse.latency), withReuse.evaluated, withReuse.total],
  ["speed-up (target >= 3x)", `${fmt(withoutReuse.latency / withReuse.latency)}x`, "", ""],
]);
await reuse.close();
await fresh.close();
agent.destroy();
await model.dispose();
await llama.dispose();
