// Ghost-text stream filters: the cost per streamed chunk of the stage every suggestion's text goes
// through as it arrives (src/core/completion/pipeline.ts), now with the special-token stops
// (streamStops) and the Markdown fence filter (withoutFence) of cb2f591/2ce10c9, against the
// baseline of that stage before them (the template's own stop list, no fence filter), measured in
// the same run, interleaved. Suggestions are real code (the typing fixtures and src/), up to 8
// lines and 48 tokens as the pipeline asks, streamed in chunks of 1-8 token-sized pieces; also
// wrapped in a Markdown fence as a chat model answers. Times are medians of RUNS runs after a warmup.
// Run with `npx tsx --expose-gc bench/ghost-filters.bench.ts` (or `npm run bench`).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { observe, stopAtLoops, stopAtStrings, withoutFence } from "../src/core/completion/filters";
import { fimTemplates, specialTokens, streamStops, type FimTemplate } from "../src/core/completion/templates";
import { percentile, printTable } from "./typing/table";

const RUNS = Number(process.env.WISP_BENCH_RUNS ?? 25);
const MAX_TOKENS = 48;

const sources = [
  ...readdirSync("test/fixtures/typing").filter((f) => /\.(ts|py)(\.txt)?$/.test(f)).map((f) => path.join("test/fixtures/typing", f)),
  ...(readdirSync("src/core/completion") as string[]).filter((f) => f.endsWith(".ts")).map((f) => path.join("src/core/completion", f)),
];
let seed = 42;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
/** Token-sized pieces, roughly as a code model's tokenizer cuts code. */
const tokens = (text: string) => text.match(/\s+|[A-Za-z_$][\w$]*|\d+|[^\s\w]/g) ?? [];

// A suggestion at every 4th non-empty line: the next lines, up to 8 of them and 48 tokens; not
// those with a fence or a special token of their own (src/core/completion writes of them), which
// the stage now cuts short, so that both stages stream every chunk.
const plain: string[][] = [];
const cutNow = (text: string) => text.includes("```") || specialTokens.some((s) => text.includes(s));
for (const file of sources) {
  const lines = readFileSync(file, "utf8").split("\n");
  for (let i = 0; i < lines.length; i += 4) {
    if (lines[i]!.trim() === "") continue;
    const pieces = tokens(lines.slice(i, i + 8).join("\n") + "\n").slice(0, MAX_TOKENS);
    if (cutNow(pieces.join(""))) continue;
    const chunks: string[] = [];
    for (let at = 0; at < pieces.length; ) {
      const n = 1 + Math.floor(random() * 8);
      chunks.push(pieces.slice(at, (at += n)).join(""));
    }
    plain.push(chunks);
  }
}
// A chat model's answer: the same code in a fence (the request is stopped at its closing fence now).
const fenced = plain.map((chunks) => ["```", "typescript\n", ...chunks, "```"]);

async function* streamOf(chunks: readonly string[]): AsyncGenerator<string> {
  for (const c of chunks) yield c;
}
type Stage = (source: AsyncIterable<string>, onText: (text: string) => void) => AsyncIterable<string>;
// The stage as pipeline.ts built it before cb2f591, and as it builds it now (outside Markdown).
const before = (t: FimTemplate): Stage => (source, onText) => stopAtLoops(observe(stopAtStrings(source, t.stop), onText));
const now = (t: FimTemplate): Stage => (source, onText) => stopAtLoops(observe(withoutFence(stopAtStrings(source, streamStops(t))), onText));

async function runAll(stage: Stage, suggestions: readonly string[][]): Promise<string[]> {
  const out: string[] = [];
  for (const chunks of suggestions) {
    let text = "";
    for await (const piece of stage(streamOf(chunks), () => undefined)) text += piece;
    out.push(text);
  }
  return out;
}

/**
 * Median ms of streaming every suggestion through each stage, the two interleaved run by run, and
 * the median of the runs' b/a ratios (steadier than the medians' ratio on a busy machine).
 */
async function timeBoth(a: Stage, b: Stage, suggestions: readonly string[][]): Promise<[number, number, number]> {
  const times: [number[], number[]] = [[], []];
  for (let run = -5; run < RUNS; run++) {
    for (const k of run % 2 === 0 ? [0, 1] : [1, 0]) {
      globalThis.gc?.();
      const started = performance.now();
      await runAll(k === 0 ? a : b, suggestions);
      if (run >= 0) times[k]!.push(performance.now() - started);
    }
  }
  return [percentile(times[0], 0.5), percentile(times[1], 0.5), percentile(times[1].map((t, i) => t / times[0][i]!), 0.5)];
}

const chunkCount = (s: readonly string[][]) => s.reduce((n, c) => n + c.length, 0);
const templates = ["qwen", "server"].map((id) => fimTemplates.find((t) => t.id === id)!);
// Code without fence or special token: both stages must give the same text.
const same = (await Promise.all(templates.map(async (t) => (await runAll(before(t), plain)).join("\u0000") === (await runAll(now(t), plain)).join("\u0000")))).every(Boolean);
console.log(`ghost-filters: ${plain.length} suggestions from ${sources.length} files, ${chunkCount(plain)} chunks (${(chunkCount(plain) / plain.length).toFixed(1)} a suggestion); ${RUNS} runs, medians; same text on plain code: ${same ? "yes" : "NO"}`);

const rows: Array<Array<string | number>> = [];
for (const t of templates) {
  for (const [name, suggestions] of [["code", plain], ["fenced answer", fenced]] as const) {
    const [old, cur, ratio] = await timeBoth(before(t), now(t), suggestions);
    const us = (ms: number) => (1000 * ms) / chunkCount(suggestions);
    const label = `${t.id} template (${t.stop.length} -> ${streamStops(t).length} stops), ${name}`;
    rows.push([`${label}: before (baseline)`, old, us(old), 1, ""]);
    rows.push([`${label}: now`, cur, us(cur), ratio, (us(cur) - us(old)).toFixed(2)]);
  }
}
printTable(["streaming all suggestions", "total (ms)", "µs/chunk", "ratio (runs' median)", "added µs/chunk"], rows, [0, 1, 2, 2]);
if (!same) process.exitCode = 1;
