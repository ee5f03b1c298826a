// Completion quality of the embedded default model (models/wisp-coder.gguf): single-line
// fill-in-the-middle on code (applications, libraries, samples) from projects outside the training
// data and this repository's dependencies (bench/fim-quality/third_party), through the local
// server's own text engine, against the prefix-copy baseline (continue as the file did where the
// line's last characters occurred before), a token n-gram model counted over the same training
// text, and the random-weight generated model. Prints exact match and edit similarity of the first
// line per language and per project (each project's files split into development and test halves),
// how many answers loop, and examples.
// Run with `npx tsx bench/fim-quality.bench.ts` (or `npm run bench`). FIM_BENCH_SPLIT=dev (or test)
// keeps one split's cases; FIM_BENCH_BASELINES=0 leaves out the n-gram and random-weight rows;
// FIM_BENCH_OUT=file.json writes every case with its answers and the file's candidate lines.
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { LlamaModel, Token } from "node-llama-cpp";
import { TextEngine } from "../src/server/engines/text/text-engine";
import { writeTinyLlamaGguf } from "../src/server/models/write-tiny-llama";
import { seededPick } from "../scripts/train/seeded-pick";
import { loopCut } from "../src/core/completion/filters";
import { heldOutCases, outsideCases, type FimCase } from "./fim-quality/cases";
import { prefixCopy } from "./fim-quality/prefix-copy";
import { firstLine, score, type Score } from "./fim-quality/metrics";
import { NgramModel } from "./fim-quality/ngram";
import { percentile, printTable } from "./typing/table";
import { fileLines, lineCandidates } from "../src/server/engines/text/line-candidates";
import { printProjectTable } from "./fim-quality/project-table";

const TRAINED = path.resolve(process.env.FIM_BENCH_MODEL ?? "models/wisp-coder.gguf");
const RANDOM = path.resolve(".cache/models/wisp-tiny.gguf");
/** As many tokens as the trained model learned from (train.py's --tokens), for the n-gram model too: all the training files' tokens where they are fewer. */
const NGRAM_TOKENS = 330_000_000;
const MAX_TOKENS = 48;

if (!existsSync(TRAINED)) {
  console.log(`fim-quality: skipped, ${TRAINED} does not exist (npm run train-model makes it)`);
  process.exit(0);
}
if (!existsSync(RANDOM)) await writeTinyLlamaGguf(RANDOM, "tiny");

const { trainingFiles } = heldOutCases(process.cwd());
const outside = outsideCases(process.cwd(), trainingFiles);
const split = process.env.FIM_BENCH_SPLIT;
const baselines = process.env.FIM_BENCH_BASELINES !== "0";
const cases = outside.cases.filter((c) => !split || c.split === split);
console.log(`${cases.length} cases from ${outside.files} files outside the training data (${outside.nearDuplicates} near-duplicates of training files left out)`);
const engineOptions = { threads: 1, parallel: 1, contextSize: 4096, maxQueue: 4, prefixReuse: true, ownLine: process.env.FIM_BENCH_OWN_LINE === "1" };
const engine = new TextEngine(engineOptions);
// The server with --no-line-candidates: every line is the model's own.
const alone = new TextEngine({ ...engineOptions, lineCandidates: false });
const greedy = { temperature: 0, presencePenalty: 0, frequencyPenalty: 0, logitBias: new Map<Token, number>() };

interface Completed {
  suggestions: string[];
  ms: number;
  /** Each case's time to its whole first line, ms (the prompt evaluated from scratch: each case is another file). */
  each: number[];
}

async function completeAll(through: TextEngine, id: string, file: string): Promise<Completed> {
  const model = await through.model(id, file);
  const started = performance.now();
  const suggestions: string[] = [];
  const each: number[] = [];
  for (const c of cases) {
    const t0 = performance.now();
    // As the server's /v1/completions builds it for a request with a suffix (token healing and the file's lines included).
    const { prompt, heal } = through.healedInfill(model, c.prefix, c.suffix, MAX_TOKENS);
    const result = await through.generate(id, file, { prompt, heal, file: fileLines(c.prefix, c.suffix), promptParam: "prompt", n: 1, maxTokens: MAX_TOKENS, stop: ["\n"], sampling: greedy, signal: new AbortController().signal });
    suggestions.push(result.choices[0]!.text);
    each.push(performance.now() - t0);
  }
  return { suggestions, ms: performance.now() - started, each };
}

function ngramBaseline(model: LlamaModel): { suggestions: string[]; ms: number } {
  const started = performance.now();
  const ngram = new NgramModel();
  const pick = seededPick(7);
  const order = trainingFiles.map((f, i) => ({ f, r: pick(1 << 30) + i / trainingFiles.length })).sort((a, b) => a.r - b.r);
  let counted = 0;
  for (const { f } of order) {
    if (counted >= NGRAM_TOKENS) break;
    const tokens = model.tokenize(f.text, false);
    ngram.add(tokens);
    counted += tokens.length;
  }
  ngram.finish();
  const suggestions = cases.map((c: FimCase) => {
    const prompt = model.tokenize(c.prefix, false).slice(-16);
    const generated = ngram.continue(prompt, MAX_TOKENS, (g) => g.length > 0 && model.detokenize(g.slice(-1) as Token[]).includes("\n"));
    return model.detokenize(generated as Token[]);
  });
  console.log(`n-gram baseline: ${counted.toLocaleString("en")} training tokens counted`);
  return { suggestions, ms: performance.now() - started };
}

const trained = await completeAll(engine, "wisp-coder", TRAINED);
const trainedAlone = await completeAll(alone, "wisp-coder", TRAINED);
const random = baselines ? await completeAll(alone, "wisp-tiny", RANDOM) : undefined;
const ngram = baselines ? ngramBaseline(await engine.model("wisp-coder", TRAINED)) : undefined;
const copyStarted = performance.now();
const copied = cases.map((c) => prefixCopy(c.prefix));
const copyMs = performance.now() - copyStarted;
// What the file's lines give with no model at all: the first candidate, or nothing.
const firstLines = cases.map((c) => lineCandidates(c.prefix, c.suffix)[0] ?? "");
const fromFile = cases.filter((c) => lineCandidates(c.prefix, c.suffix).length > 0).length;
/** The first line as Wisp's ghost text shows it: cut where it starts to loop (stopAtLoops). */
const withLoopStop = (s: string[]) => s.map((t) => firstLine(t).slice(0, loopCut(firstLine(t)) ?? undefined));
const methods: [string, string[], number][] = [
  ["wisp-coder, the server's answer", trained.suggestions, trained.ms],
  ["  loops cut, as ghost text shows it", withLoopStop(trained.suggestions), trained.ms],
  ["wisp-coder alone (--no-line-candidates)", trainedAlone.suggestions, trainedAlone.ms],
  ["  loops cut", withLoopStop(trainedAlone.suggestions), trainedAlone.ms],
  ["prefix copy (baseline)", copied, copyMs],
  ["the file's first line candidate, no model", firstLines, NaN],
];
if (ngram) methods.push(["n-gram (orders 1-4)", ngram.suggestions, ngram.ms]);
if (random) methods.push(["wisp-tiny (random weights)", random.suggestions, random.ms]);
const loops = (s: string[]) => s.filter((t) => loopCut(firstLine(t)) !== undefined).length;
const subsets: [string, (c: FimCase) => boolean][] = [
  ["all", () => true],
  ["typescript", (c) => c.language === "typescript"],
  ["javascript", (c) => c.language === "javascript"],
  ["python", (c) => c.language === "python"],
  ["cursor at a boundary", (c) => c.cursor === "boundary"],
  ["cursor anywhere", (c) => c.cursor === "anywhere"],
];
for (const [name, keep] of subsets) {
  const index = cases.flatMap((c, i) => (keep(c) ? [i] : []));
  const of = (s: string[]): Score => score(index.map((i) => ({ expected: cases[i]!.expected, suggested: s[i]! })));
  const base = of(copied);
  console.log(`\n${name}: ${index.length} cases (first line of the suggestion vs the rest of the real line)`);
  printTable(
    ["method", "exact match %", "vs copy", "edit similarity %", "vs copy", "loops", "seconds"],
    methods.map(([method, s, ms]) => {
      const r = of(s);
      const subset = index.map((i) => s[i]!);
      return [method, r.exactMatch * 100, `${(r.exactMatch / base.exactMatch).toFixed(2)}x`, r.editSimilarity * 100, `${(r.editSimilarity / base.editSimilarity).toFixed(2)}x`, loops(subset), name === "all" ? ms / 1000 : NaN];
    }),
    [0, 1, 0, 1, 0, 0, 1],
  );
}
printProjectTable(cases, { server: withLoopStop(trained.suggestions), alone: withLoopStop(trainedAlone.suggestions), copy: copied });
if (process.env.FIM_BENCH_OUT) {
  const out = cases.map((c, i) => ({ ...c, prefix: c.prefix.slice(-600), suffix: c.suffix.slice(0, 200), server: trained.suggestions[i], alone: trainedAlone.suggestions[i], copy: copied[i], candidates: lineCandidates(c.prefix, c.suffix) }));
  writeFileSync(process.env.FIM_BENCH_OUT, JSON.stringify(out, null, 1));
}
console.log(`\n${fromFile} of ${cases.length} cases had lines from the file to choose from; the rest are the model's own.`);
console.log("time to the whole first line, ms (each prompt evaluated from scratch, one thread):");
printTable(
  ["wisp-coder", "p50", "p90", "vs alone, p50"],
  [
    ["the server's answer", percentile(trained.each, 0.5), percentile(trained.each, 0.9), `${(percentile(trained.each, 0.5) / percentile(trainedAlone.each, 0.5)).toFixed(2)}x`],
    ["alone (--no-line-candidates)", percentile(trainedAlone.each, 0.5), percentile(trainedAlone.each, 0.9), "1.00x"],
  ],
  [0, 1, 1, 0],
);
console.log("\nexamples (every 60th case): the line's start | real rest | the server's answer | prefix copy");
for (let i = 0; i < cases.length; i += 60) {
  const c = cases[i]!;
  const lineStart = c.prefix.slice(c.prefix.lastIndexOf("\n") + 1).trimStart();
  console.log(`  ${JSON.stringify(lineStart.slice(-40))} | ${JSON.stringify(c.expected)} | ${JSON.stringify(firstLine(trained.suggestions[i]!))} | ${JSON.stringify(copied[i])}`);
}
await engine.dispose();
await alone.dispose();
