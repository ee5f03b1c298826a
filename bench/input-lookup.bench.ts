// Input lookup (speculative decoding from the prompt) on real completion work: fill-in-the-middle
// requests at line starts of the typing replay's source files, on the trained default model, through
// the server's own text engine with lookup off and on, interleaved. Prints tokens/s, the speed-up,
// and how many guessed tokens the model confirmed. The output is the same either way (checked).
// Run with `npx tsx bench/input-lookup.bench.ts` (or `npm run bench`).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Token } from "node-llama-cpp";
import { TextEngine } from "../src/server/engines/text/text-engine";
import { percentile, printTable } from "./typing/table";

const MODEL = path.resolve("models/wisp-coder.gguf");
if (!existsSync(MODEL)) {
  console.log(`input-lookup: skipped, ${MODEL} does not exist (npm run train-model makes it)`);
  process.exit(0);
}
const FILES_DIR = path.resolve("test/fixtures/typing");
const MAX_TOKENS = 64;
const LOOKUPS = [0, 2, 4, 8];

// Cursor at the start of every third non-empty line (after its indentation): what to write next.
const cases = readdirSync(FILES_DIR)
  .filter((f) => /\.(ts|py)(\.txt)?$/.test(f))
  .flatMap((f) => {
    const text = readFileSync(path.join(FILES_DIR, f), "utf8");
    const lines = text.split("\n");
    let at = 0;
    return lines.flatMap((line, i) => {
      const from = at + line.search(/\S|$/);
      at += line.length + 1;
      return i % 3 === 0 && line.trim() !== "" ? [{ prefix: text.slice(0, from), suffix: text.slice(from + line.trimStart().length) }] : [];
    });
  });

const engines = LOOKUPS.map((n) => new TextEngine({ threads: 1, parallel: 1, contextSize: 4096, maxQueue: 4, prefixReuse: true, inputLookup: n }));
const greedy = { temperature: 0, presencePenalty: 0, frequencyPenalty: 0, logitBias: new Map<Token, number>() };
const rates = LOOKUPS.map(() => [] as number[]);
const texts = LOOKUPS.map(() => [] as string[]);
let tokens = 0;
for (const engine of engines) await engine.model("wisp-coder", MODEL);
for (const [i, c] of cases.entries()) {
  // Each engine in turn, the order rotating, so that all see the same background load.
  for (let k = 0; k < engines.length; k++) {
    const e = (i + k) % engines.length;
    const engine = engines[e]!;
    const model = await engine.model("wisp-coder", MODEL);
    // As the server builds it for a request with a suffix (token healing included).
    const { prompt, heal } = engine.healedInfill(model, c.prefix, c.suffix, MAX_TOKENS);
    const started = performance.now();
    const result = await engine.generate("wisp-coder", MODEL, { prompt, heal, promptParam: "prompt", n: 1, maxTokens: MAX_TOKENS, stop: [], sampling: greedy, signal: new AbortController().signal });
    const ms = performance.now() - started;
    if (result.completionTokens > 4) rates[e]!.push((result.completionTokens * 1000) / ms);
    texts[e]!.push(result.choices[0]!.text);
    if (e === 0) tokens += result.completionTokens;
  }
}
const same = texts.every((t) => t.every((text, i) => text === texts[0]![i]));
console.log(`\ninput lookup on ${cases.length} fill-in-the-middle requests (line starts in ${FILES_DIR}), wisp-coder, ${tokens} tokens generated per setting; same text with and without: ${same ? "yes" : "NO"}`);
const base = percentile(rates[0]!, 0.5);
printTable(
  ["guessed tokens per step", "median tok/s", "speed-up", "guesses confirmed"],
  LOOKUPS.map((n, e) => {
    const m = engines[e]!.metrics();
    return [n === 0 ? "off" : String(n), percentile(rates[e]!, 0.5), `${(percentile(rates[e]!, 0.5) / base).toFixed(2)}x`, n === 0 ? "" : `${m.lookupAccepted}/${m.lookupPredicted} (${((100 * m.lookupAccepted) / Math.max(1, m.lookupPredicted)).toFixed(0)}%)`];
  }),
  [0, 1],
);
for (const engine of engines) await engine.dispose();
if (!same) process.exitCode = 1;
