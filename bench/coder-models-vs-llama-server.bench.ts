// The local server against llama.cpp's own llama-server on the shapes of the models users pull:
// Qwen2.5-Coder-0.5B and -1.5B (random weights, the real qwen2 vocabulary with its FIM tokens,
// q8_0 and q4_0; bench/engine/qwen-coder-models.ts), both servers pinned to the same CPUs with the
// same threads and context. Per model: generation and prompt tokens/s through /v1/completions
// (runs interleaved, ratios per run), the typing session of test/fixtures/typing replayed at its
// own rhythm with a request at each pause, from the Wisp extension's request plan to wisp-server
// and from llama.vscode's /infill pattern to llama-server (time to the first line p50/p95, prompt
// tokens evaluated per request), and each server's peak resident memory.
// llama-server is built once from the llama.cpp source node-llama-cpp ships (LLAMA_SERVER names
// another); the models are written once into ~/.cache/wisp-bench. Run with
// `npx tsx bench/coder-models-vs-llama-server.bench.ts` (or `npm run bench`). Environment:
// WISP_BENCH_CODER_MODELS (default "0.5b:q8_0,0.5b:q4_0,1.5b:q8_0,1.5b:q4_0"), ENGINE_BENCH_RUNS
// (default 3), WISP_BENCH_REPLAY_KEYS (default: the whole session, 387 keys over ~90 s),
// ENGINE_BENCH_CPU (default "0,1"), WISP_BENCH_THREADS (generation,prompt threads; default "1,2").
import { availableParallelism } from "node:os";
import { getLlama, type Token } from "node-llama-cpp";
import { cpuPin } from "./engine/cpu-pin";
import { llamaServerBinary, startLlamaServer } from "./engine/llama-server";
import { llamaVscodeClient } from "./engine/llama-vscode-client";
import { replayPauses, type PauseClient } from "./engine/pause-replay";
import { residentMemory } from "./engine/process-memory";
import { qwenCoderModel, qwenCoderModelId, type BenchQuant, type QwenCoderSize } from "./engine/qwen-coder-models";
import { closeTimingAgent, timedCompletion } from "./engine/stream-timing";
import { closeStreamedAnswers } from "./engine/streamed-answer";
import { wispPauseClient } from "./engine/wisp-pause-client";
import { startWispServer } from "./typing/local-server";
import { loadSession } from "./typing/replay";
import { fmt, percentile, printTable } from "./typing/table";

const MODELS = (process.env.WISP_BENCH_CODER_MODELS ?? "0.5b:q8_0,0.5b:q4_0,1.5b:q8_0,1.5b:q4_0").split(",").map((m) => m.split(":") as [QwenCoderSize, BenchQuant]);
const RUNS = Number(process.env.ENGINE_BENCH_RUNS ?? 3);
const REPLAY_KEYS = Number(process.env.WISP_BENCH_REPLAY_KEYS ?? Infinity);
// Generation on one thread, prompts on two: on these shared 2-core VMs two generation threads made
// every decode step ~10x slower (0.5B q4_0: 2-4 against 23-31 tokens/s), on either server, as
// ggml's threads wait for each other at every step and one of them keeps losing its core.
const [GEN_THREADS, THREADS] = (process.env.WISP_BENCH_THREADS ?? "1,2").split(",").map(Number) as [number, number];
const CONTEXT = 8192;
/** A first line's length cap in tokens: random weights rarely end a line, a real model's line of code takes about this many. */
const LINE_TOKENS = 16;
const GENERATED = 64;
const PROMPT = 512;
const median = (xs: number[]) => percentile(xs, 0.5);

const pin = cpuPin(process.env.ENGINE_BENCH_CPU ?? Array.from({ length: Math.min(THREADS, availableParallelism()) }, (_, i) => i).join(","));
const binary = llamaServerBinary();
const llama = await getLlama({ gpu: false, build: "never", logLevel: "error" as never });
const { session, texts } = loadSession("test/fixtures/typing");
console.log(`coder models vs llama-server: ${GEN_THREADS} generation / ${THREADS} prompt threads each, context ${CONTEXT}, ${pin.note}; replay of ${Math.min(REPLAY_KEYS, session.keystrokes)} keys, a first line = at most ${LINE_TOKENS} tokens`);

for (const [size, quant] of MODELS) {
  const file = await qwenCoderModel(size, quant);
  const model = qwenCoderModelId(size, quant);
  const vocab = await llama.loadModel({ modelPath: file, vocabOnly: true });
  // Random weights end answers at random: neither side may generate an end-of-generation token.
  // For the speed runs, every token that is not printable ASCII too: the servers hold back pieces of
  // a character, which would bunch the stream into fewer, later chunks.
  const banned: number[] = [];
  const ascii: Record<string, number> = {};
  for (let id = 0; id < vocab.fileInfo.metadata.tokenizer.ggml.tokens.length; id++) {
    if (vocab.isEogToken(id as Token)) banned.push(id);
    if (vocab.isEogToken(id as Token) || !/^[\x20-\x7e\n]+$/.test(vocab.detokenize([id as Token], true))) ascii[String(id)] = -100;
  }
  const bias = Object.fromEntries(banned.map((id) => [String(id), -100]));
  // The session's three files make about 1,070 tokens: four times over, every prompt below is whole.
  const corpus = vocab.tokenize([...texts.values()].join("\n").repeat(4), false);
  await vocab.dispose();
  const flags = ["--threads", String(GEN_THREADS), "--threads-batch", String(THREADS), "--parallel", "1", "--ctx-size", String(CONTEXT)];
  const wisp = await startWispServer(file, model, flags, pin);
  // llama.vscode's recommended server flags (its README), at the same context size.
  const native = await startLlamaServer(binary, file, { threads: GEN_THREADS, threadsBatch: THREADS, contextSize: CONTEXT, pin, extraArgs: ["-b", "1024", "-ub", "1024", "--cache-reuse", "256"] });
  try {
    const sides = [
      (body: Record<string, unknown>) => timedCompletion(wisp.baseUrl, wisp.apiKey, { model, ...body }),
      (body: Record<string, unknown>) => timedCompletion(native.baseUrl, "none", { model, ...body }),
    ];
    const greedy = { temperature: 0, top_p: 1, logit_bias: ascii };
    for (const run of sides) await run({ ...greedy, prompt: corpus.slice(0, 32), max_tokens: 4 }); // loads, warms
    const gen: [number[], number[]] = [[], []];
    const prompt: [number[], number[]] = [[], []];
    for (let r = 0; r < RUNS; r++) {
      const order = r % 2 === 0 ? [0, 1] : [1, 0];
      for (const s of order) gen[s]!.push((await sides[s]!({ ...greedy, prompt: corpus.slice(r * 16, r * 16 + 16), max_tokens: GENERATED })).rate);
      // A prompt neither has seen (shifted per run and side), timed to its first token.
      for (const s of order) prompt[s]!.push((PROMPT * 1000) / (await sides[s]!({ ...greedy, prompt: corpus.slice(1000 + r * 50 + s * 7, 1000 + r * 50 + s * 7 + PROMPT), max_tokens: 1 })).ttft);
    }
    const replayed = async (client: PauseClient, evaluated: () => Promise<number>) => {
      const before = await evaluated();
      const stats = await replayPauses(session, texts, client, REPLAY_KEYS);
      await new Promise((done) => setTimeout(done, 500)); // the servers count the last cancellations
      return { ...stats, sent: client.sent, evaluatedPerRequest: ((await evaluated()) - before) / Math.max(1, client.sent) };
    };
    const ours = await replayed(wispPauseClient(wisp, LINE_TOKENS, bias), async () => (await wisp.metrics()).promptTokensEvaluated);
    const theirs = await replayed(llamaVscodeClient(native, LINE_TOKENS, banned), () => native.promptTokensEvaluated());
    const [wMem, nMem] = [residentMemory(wisp.pid), residentMemory(native.pid)];
    const perRun = (a: number[], b: number[]) => a.map((x, i) => x / b[i]!);
    const ratio = (xs: number[]) => `${fmt(median(xs), 2)}x (${fmt(Math.min(...xs), 2)}-${fmt(Math.max(...xs), 2)})`;
    console.log(`\n${model}: ${RUNS} interleaved runs (median; ratio: median (min-max) of each run's own); replay: ${ours.pauses} pauses`);
    printTable(["metric", "wisp-server", "llama-server", "wisp / llama", "target"], [
      [`generation tok/s (${GENERATED} tokens)`, fmt(median(gen[0]), 1), fmt(median(gen[1]), 1), ratio(perRun(gen[0], gen[1])), ">= 1.0x"],
      [`prompt tok/s (${PROMPT} tokens)`, fmt(median(prompt[0]), 0), fmt(median(prompt[1]), 0), ratio(perRun(prompt[0], prompt[1])), ">= 1.0x"],
      ["replay: time to first line p50 ms", fmt(percentile(ours.latencies, 0.5)), fmt(percentile(theirs.latencies, 0.5)), `${fmt(percentile(ours.latencies, 0.5) / percentile(theirs.latencies, 0.5), 2)}x`, "<= 0.6x"],
      ["replay: time to first line p95 ms", fmt(percentile(ours.latencies, 0.95)), fmt(percentile(theirs.latencies, 0.95)), `${fmt(percentile(ours.latencies, 0.95) / percentile(theirs.latencies, 0.95), 2)}x`, ""],
      ["replay: requests sent / answered", `${ours.sent} / ${ours.latencies.length}`, `${theirs.sent} / ${theirs.latencies.length}`, "", ""],
      ["replay: pauses answered before the next key", `${ours.inTime.length}`, `${theirs.inTime.length}`, "", ""],
      ["  their time to first line p50 ms", fmt(percentile(ours.inTime, 0.5)), fmt(percentile(theirs.inTime, 0.5)), `${fmt(percentile(ours.inTime, 0.5) / percentile(theirs.inTime, 0.5), 2)}x`, ""],
      ["replay: prompt tokens evaluated / request", fmt(ours.evaluatedPerRequest), fmt(theirs.evaluatedPerRequest), `${fmt(ours.evaluatedPerRequest / theirs.evaluatedPerRequest, 2)}x`, ""],
      ["peak resident memory MiB", fmt(wMem.peak), fmt(nMem.peak), `${fmt(wMem.peak / nMem.peak, 2)}x`, "<= 1.1x"],
    ]);
  } finally {
    await wisp.stop();
    await native.stop();
  }
}
closeTimingAgent();
closeStreamedAnswers();
await llama.dispose();
