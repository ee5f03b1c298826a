// Which size of code model the local server can afford as its default: random-weight GGUFs of
// candidate shapes (wisp-coder's family: llama blocks, 64-dimension heads, a feed-forward twice the
// width, its own vocabulary and suffix-middle-prefix layout, q8_0), each served by the real server on
// one thread, against the typing session of test/fixtures/typing with a request at each pause, as
// the extension plans it (bench/engine/wisp-pause-client.ts): the same requests in the same order,
// each awaited before the next key (CODER_SHAPES_RHYTHM=1: at the session's own rhythm, where an
// answer slower than the pause is cancelled by the next key and not counted). The random
// models never write a line break or end an answer, so each of their own lines is the whole
// LINE_TOKENS: a trained model's lines are shorter (the shipped wisp-coder, trained, is timed beside
// them, with its random-weight twin). Copied lines (line-candidates.ts) are scored as for any model.
// Shapes run in interleaved rounds, the order turned each round, so that the machine's load drifts
// over all alike. Prints per shape the time to the first line at a pause: p50 over the pauses of
// each pause's best round (on a shared machine, the nearest to a quiet one's time; the budget is
// judged on it), p50 of every sample, the spread of the rounds' p50s, p95; the server's CPU time
// per request; against the 100 ms budget of a default, with the load average.
// Run with `npx tsx bench/coder-shapes.bench.ts` (or `npm run bench`). Environment:
// CODER_SHAPES_ROUNDS (default 5), CODER_SHAPES_RHYTHM, CODER_SHAPES (names, default all), CODER_SHAPES_TRAINED
// (trained GGUFs to time beside the shipped one, comma-separated), WISP_BENCH_REPLAY_KEYS
// (default: the whole session, 387 keys over ~90 s), ENGINE_BENCH_CPU (default "none": not pinned).
import { existsSync } from "node:fs";
import { mkdir, open, rename, stat } from "node:fs/promises";
import { loadavg } from "node:os";
import path from "node:path";
import { readGgufFileInfo } from "node-llama-cpp";
import { TensorType } from "../src/server/models/gguf-writer";
import { encodeLlamaGguf, llamaTensorShapes, llamaVocabulary, type LlamaSpec } from "../src/server/models/llama-gguf";
import { endlessWeights } from "../src/server/models/tiny-llama";
import { readGgufBpe } from "../scripts/train/gguf-vocabulary";
import { cpuPin } from "./engine/cpu-pin";
import { replayPauses } from "./engine/pause-replay";
import { closeStreamedAnswers, streamedAnswer } from "./engine/streamed-answer";
import { wispPauseClient } from "./engine/wisp-pause-client";
import { startWispServer, type LocalServer } from "./typing/local-server";
import { loadSession } from "./typing/replay";
import { fmt, percentile, printTable } from "./typing/table";

const SHIPPED = path.resolve("models/wisp-coder.gguf");
/** The time a default model may take to its first line at a pause, p50. */
const BUDGET_MS = 100;
/** A first line's length cap in tokens, as the extension asks (completion.maxTokens' default is larger; a line of code takes about this many). */
const LINE_TOKENS = 16;
const ROUNDS = Number(process.env.CODER_SHAPES_ROUNDS ?? 5);
const RHYTHM = process.env.CODER_SHAPES_RHYTHM === "1";
const REPLAY_KEYS = Number(process.env.WISP_BENCH_REPLAY_KEYS ?? Infinity);

interface Shape {
  name: string;
  embedding: number;
  layers: number;
}

/** wisp-coder's own shape first, then wider ones: 8 layers, heads of 64, feed-forward 2x. */
const SHAPES: Shape[] = [
  { name: "7.5M (wisp-coder's shape)", embedding: 256, layers: 8 },
  { name: "15M", embedding: 384, layers: 8 },
  { name: "25M", embedding: 512, layers: 8 },
  { name: "38M", embedding: 640, layers: 8 },
  { name: "54M", embedding: 768, layers: 8 },
];

const specOf = (shape: Shape): LlamaSpec => ({
  name: `wisp-coder-${shape.embedding}x${shape.layers}`,
  embedding: shape.embedding,
  layers: shape.layers,
  heads: shape.embedding / 64,
  kvHeads: shape.embedding / 64,
  feedForward: 2 * shape.embedding,
  contextLength: 1024,
  tensorType: TensorType.Q8_0,
});

/** The shape's random-weight GGUF with the shipped model's vocabulary, written once into .cache/models. */
async function shapeModel(shape: Shape): Promise<string> {
  const spec = specOf(shape);
  const file = path.resolve(".cache/models", `${spec.name}-random.gguf`);
  if (existsSync(file)) return file;
  const vocabulary = llamaVocabulary(await readGgufBpe(SHIPPED));
  // Line breaks (`Ċ`) and end-of-generation tokens never come: every own line is LINE_TOKENS long.
  const weights = endlessWeights(vocabulary, (token) => token.includes("\u010a"));
  await mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  const handle = await open(temp, "w");
  for (const chunk of encodeLlamaGguf(spec, vocabulary, weights, { fimLayout: "suffix-middle-prefix" })) await handle.write(chunk);
  await handle.close();
  await rename(temp, file);
  return file;
}

const parameters = (spec: LlamaSpec, vocab: number) => llamaTensorShapes(spec, vocab).reduce((sum, t) => sum + t.dims.reduce((a, b) => a * b, 1), 0);

interface Candidate {
  name: string;
  file: string;
  params: number;
  server?: LocalServer;
  /** Each round's pause latencies, ms. */
  rounds: number[][];
  /** Each round's server CPU time per request sent, ms. */
  cpu: number[];
  /** The server's own flags for it. */
  flags: string[];
}

if (!existsSync(SHIPPED)) {
  console.log(`coder-shapes: skipped, ${SHIPPED} does not exist (its vocabulary is the candidates')`);
  process.exit(0);
}
const wanted = process.env.CODER_SHAPES?.split(",");
const vocabSize = llamaVocabulary(await readGgufBpe(SHIPPED)).tokens.length;
// The shipped model and the random shapes are served with the file's lines alone (--no-own-line):
// random weights never end a line of their own, which would only be generated to be thrown away.
const copiesOnly = ["--no-own-line"];
const candidates: Candidate[] = [{ name: "wisp-coder, trained (shipped)", file: SHIPPED, params: parameters(specOf(SHAPES[0]!), vocabSize), rounds: [], cpu: [], flags: copiesOnly }];
for (const shape of SHAPES.filter((s) => !wanted || wanted.includes(s.name.split(" ")[0]!))) {
  candidates.push({ name: `${shape.name}: ${shape.layers} x ${shape.embedding}`, file: await shapeModel(shape), params: parameters(specOf(shape), vocabSize), rounds: [], cpu: [], flags: copiesOnly });
}
// Trained candidates (CODER_SHAPES_TRAINED=file,...) are timed beside the shipped model as the server
// answers by default (their own line among the copies) and with the copies alone.
for (const file of process.env.CODER_SHAPES_TRAINED?.split(",").filter(Boolean) ?? []) {
  const info = await readGgufFileInfo(path.resolve(file));
  const params = (info.fullTensorInfo ?? []).reduce((sum, t) => sum + t.dimensions.reduce((a: number, b) => a * Number(b), 1), 0);
  candidates.push({ name: `trained: ${path.basename(file)}`, file: path.resolve(file), params, rounds: [], cpu: [], flags: [] });
  candidates.push({ name: `trained: ${path.basename(file)}, --no-own-line`, file: path.resolve(file), params, rounds: [], cpu: [], flags: copiesOnly });
}
const pin = cpuPin(process.env.ENGINE_BENCH_CPU ?? "none");
const { session, texts } = loadSession("test/fixtures/typing");
const load = () => loadavg().map((x) => x.toFixed(1)).join(", ");
console.log(`coder shapes at a pause: one thread, ${ROUNDS} interleaved rounds of the typing session (${Math.min(REPLAY_KEYS, session.keystrokes)} keys${RHYTHM ? ", at its rhythm" : ", each answer awaited"}), a first line = at most ${LINE_TOKENS} tokens; ${pin.note}; load average ${load()}`);
const flags = ["--threads", "1", "--threads-batch", "1", "--parallel", "1", "--ctx-size", "2048"];
try {
  for (const c of candidates) {
    c.server = await startWispServer(c.file, "wisp-coder", [...flags, ...c.flags], pin);
    // Loads the model: the first request's time is not a pause's.
    const warmUp = { model: "wisp-coder", prompt: "function add(a, b) {\n  return ", suffix: "\n}\n", max_tokens: 4, temperature: 0, stop: ["\n"] };
    await streamedAnswer(`${c.server.baseUrl}/completions`, c.server.apiKey, warmUp, new AbortController().signal);
  }
  for (let round = 0; round < ROUNDS; round++) {
    const order = candidates.map((_, i) => candidates[(i + round) % candidates.length]!);
    for (const c of order) {
      const client = wispPauseClient(c.server!, LINE_TOKENS, {});
      const cpuBefore = c.server!.cpuMs();
      const stats = await replayPauses(session, texts, client, REPLAY_KEYS, { rhythm: RHYTHM });
      c.cpu.push((c.server!.cpuMs() - cpuBefore) / Math.max(1, client.sent));
      c.rounds.push(stats.latencies);
    }
    console.log(`round ${round + 1} of ${ROUNDS} done, load average ${load()}`);
  }
} finally {
  for (const c of candidates) await c.server?.stop();
  closeStreamedAnswers();
}

/** Each pause's best round (with the rhythm, answers cancelled differ per round: then every sample). */
const best = (c: Candidate) => (RHYTHM ? c.rounds.flat() : c.rounds[0]!.map((_, i) => Math.min(...c.rounds.map((r) => r[i]!))));
const reference = percentile(best(candidates[0]!), 0.5);
const rows = await Promise.all(
  candidates.map(async (c) => {
    const p50 = percentile(best(c), 0.5);
    const each = c.rounds.map((r) => percentile(r, 0.5));
    return [
      c.name,
      `${(c.params / 1e6).toFixed(2)}M`,
      `${((await stat(c.file)).size / 2 ** 20).toFixed(1)}`,
      best(c).length,
      p50,
      percentile(c.rounds.flat(), 0.5),
      `${fmt(Math.min(...each), 1)}-${fmt(Math.max(...each), 1)}`,
      percentile(best(c), 0.95),
      percentile(c.cpu, 0.5),
      `${(p50 / reference).toFixed(2)}x`,
      p50 <= BUDGET_MS ? "inside" : "over",
    ];
  }),
);
printTable(
  ["model", "parameters", "MiB", "pauses", "first line p50 ms (best round)", "p50, every sample", "rounds' p50", "p95 (best round)", "CPU ms / request", "vs shipped", `${BUDGET_MS} ms budget`],
  rows,
  [0, 0, 0, 0, 1, 1, 0, 1, 1, 0, 0],
);
console.log(`\nload average at the end ${load()}`);
