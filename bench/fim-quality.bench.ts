// Completion quality of the embedded default model (models/wisp-coder.gguf): single-line
// fill-in-the-middle on held-out files the model never saw, through the local server's own text
// engine, against the random-weight generated model and a token n-gram baseline counted over the
// same training text. Prints exact match and edit similarity of the first line, and examples.
// Run with `npx tsx bench/fim-quality.bench.ts` (or `npm run bench`).
import { existsSync } from "node:fs";
import path from "node:path";
import type { LlamaModel, Token } from "node-llama-cpp";
import { TextEngine } from "../src/server/engines/text/text-engine";
import { writeTinyLlamaGguf } from "../src/server/models/write-tiny-llama";
import { seededPick } from "../scripts/train/seeded-pick";
import { heldOutCases, type FimCase } from "./fim-quality/cases";
import { firstLine, score, type Score } from "./fim-quality/metrics";
import { NgramModel } from "./fim-quality/ngram";
import { printTable } from "./typing/table";

const TRAINED = path.resolve(process.env.FIM_BENCH_MODEL ?? "models/wisp-coder.gguf");
const RANDOM = path.resolve(".cache/models/wisp-tiny.gguf");
/** As many tokens as the trained model learned from (train.py's --tokens), for the n-gram model too. */
const NGRAM_TOKENS = 12_000_000;
const MAX_TOKENS = 48;

if (!existsSync(TRAINED)) {
  console.log(`fim-quality: skipped, ${TRAINED} does not exist (npm run train-model makes it)`);
  process.exit(0);
}
if (!existsSync(RANDOM)) await writeTinyLlamaGguf(RANDOM, "tiny");

const { cases, trainingFiles } = heldOutCases(process.cwd());
const engine = new TextEngine({ threads: 1, parallel: 1, contextSize: 4096, maxQueue: 4, prefixReuse: true });
const greedy = { temperature: 0, presencePenalty: 0, frequencyPenalty: 0, logitBias: new Map<Token, number>() };

async function completeAll(id: string, file: string): Promise<{ suggestions: string[]; ms: number }> {
  const model = await engine.model(id, file);
  const started = performance.now();
  const suggestions: string[] = [];
  for (const c of cases) {
    // As the server's /v1/completions builds it for a request with a suffix (token healing included).
    const { prompt, heal } = engine.healedInfill(model, c.prefix, c.suffix, MAX_TOKENS);
    const result = await engine.generate(id, file, { prompt, heal, promptParam: "prompt", n: 1, maxTokens: MAX_TOKENS, stop: ["\n"], sampling: greedy, signal: new AbortController().signal });
    suggestions.push(result.choices[0]!.text);
  }
  return { suggestions, ms: performance.now() - started };
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

const trained = await completeAll("wisp-coder", TRAINED);
const random = await completeAll("wisp-tiny", RANDOM);
const ngram = ngramBaseline(await engine.model("wisp-coder", TRAINED));
const scoreOf = (s: string[]) => score(cases.map((c, i) => ({ expected: c.expected, suggested: s[i]! })));
const results: [string, Score, number][] = [
  ["wisp-coder (trained)", scoreOf(trained.suggestions), trained.ms],
  ["wisp-tiny (random weights)", scoreOf(random.suggestions), random.ms],
  ["n-gram baseline (orders 1-4)", scoreOf(ngram.suggestions), ngram.ms],
];
const base = results[2]![1];
console.log(`\nsingle-line fill-in-the-middle on ${cases.length} cases from ${new Set(cases.map((c) => c.file)).size} held-out files (first line of the suggestion vs the rest of the real line)`);
printTable(
  ["model", "exact match %", "vs n-gram", "edit similarity %", "vs n-gram", "seconds"],
  results.map(([name, s, ms]) => [name, s.exactMatch * 100, `${(s.exactMatch / base.exactMatch).toFixed(2)}x`, s.editSimilarity * 100, `${(s.editSimilarity / base.editSimilarity).toFixed(2)}x`, ms / 1000]),
  [0, 1, 0, 1, 0, 1],
);
const subsets: [string, (c: FimCase) => boolean][] = [
  ["cursor at a boundary", (c) => c.cursor === "boundary"],
  ["cursor anywhere", (c) => c.cursor === "anywhere"],
  ["typescript", (c) => c.language === "typescript"],
  ["javascript", (c) => c.language === "javascript"],
  ["python", (c) => c.language === "python"],
];
for (const [name, keep] of subsets) {
  const index = cases.flatMap((c, i) => (keep(c) ? [i] : []));
  const of = (s: string[]) => score(index.map((i) => ({ expected: cases[i]!.expected, suggested: s[i]! })));
  const [t, n] = [of(trained.suggestions), of(ngram.suggestions)];
  console.log(`  ${name.padEnd(20)} ${String(index.length).padStart(4)} cases: trained ${(t.exactMatch * 100).toFixed(1)}% exact, ${(t.editSimilarity * 100).toFixed(1)}% similar; n-gram ${(n.exactMatch * 100).toFixed(1)}% exact, ${(n.editSimilarity * 100).toFixed(1)}% similar`);
}
console.log("\nexamples (every 80th case): the line's start | real rest | trained | n-gram");
for (let i = 0; i < cases.length; i += 80) {
  const c = cases[i]!;
  const lineStart = c.prefix.slice(c.prefix.lastIndexOf("\n") + 1).trimStart();
  console.log(`  ${JSON.stringify(lineStart.slice(-40))} | ${JSON.stringify(c.expected)} | ${JSON.stringify(firstLine(trained.suggestions[i]!))} | ${JSON.stringify(firstLine(ngram.suggestions[i]!))}`);
}
await engine.dispose();
