// Workspace search tokenizer (searchTerms, src/core/context/identifiers.ts): words of any script
// since 0b7413f, against the baseline of the ASCII-only tokenizer it replaced (bench/search-terms/
// ascii-terms.ts), measured in the same run, interleaved. Inputs: the repository's own src/ cut
// into the chunks the index tokenizes, and code commented in Russian, German, Greek, French and
// Japanese. Then building the BM25 index over src/ (chunking included), to show the tokenizer's
// share of indexing a workspace. Times are medians of RUNS runs after a warmup.
// Run with `npx tsx --expose-gc bench/search-terms.bench.ts` (or `npm run bench`).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Bm25Index } from "../src/core/context/bm25-index";
import { chunkText } from "../src/core/context/chunker";
import { searchTerms } from "../src/core/context/identifiers";
import { asciiSearchTerms } from "./search-terms/ascii-terms";
import { percentile, printTable } from "./typing/table";

const RUNS = Number(process.env.WISP_BENCH_RUNS ?? 15);

const files = (readdirSync("src", { recursive: true, encoding: "utf8" }) as string[])
  .filter((f) => f.endsWith(".ts"))
  .sort()
  .map((f) => ({ path: path.join("src", f), text: readFileSync(path.join("src", f), "utf8") }));
const srcChunks = files.flatMap((f) => chunkText(f.path, f.text).map((c) => c.text));
const asciiOnly = srcChunks.filter((t) => /^[\x00-\x7f]*$/.test(t));

// Code as a team writing in its own language comments it (é also as e + U+0301, as macOS file names and
// some editors store it), 400 files' worth.
const foreign = [
  "// Скидка для постоянных клиентов: 10% от суммы заказа, не больше 500 рублей.\nexport function скидкаКлиента(сумма: number): number {\n  return Math.min(сумма * 0.1, 500);\n}\n",
  "// Größe des Pakets in Zentimetern, für den Versand über die Straße.\nexport const paketGröße = (breite: number, höhe: number) => breite * höhe;\n",
  "// Υπολογισμός του φόρου για κάθε παραγγελία πελάτη.\nfunction υπολογισμόςΦόρου(ποσό) {\n  return ποσό * 0.24;\n}\n",
  "# Calcule la durée de la réservation (e\u0301te\u0301 compris), en jours.\ndef durée_réservation(début, fin):\n    return (fin - début).days\n",
  "// 注文の合計金額を計算する。税込み。\nexport function 合計金額(items: Item[]): number {\n  return items.reduce((s, i) => s + i.price, 0);\n}\n",
];
const foreignChunks = Array.from({ length: 400 }, (_, i) => foreign.slice(i % 5).concat(foreign.slice(0, i % 5)).join("\n"));

const mb = (texts: readonly string[]) => texts.reduce((s, t) => s + t.length, 0) / 1e6;
const heapSettle = () => globalThis.gc?.();

/** Median ms of tokenizing every text with each tokenizer, the two interleaved run by run. */
function timeBoth(texts: readonly string[]): { old: number; now: number } {
  const times = { old: [] as number[], now: [] as number[] };
  let sink = 0;
  for (let run = -2; run < RUNS; run++) {
    // Order alternates so that neither always runs right after a collection.
    for (const which of run % 2 === 0 ? (["old", "now"] as const) : (["now", "old"] as const)) {
      const tokenize = which === "old" ? asciiSearchTerms : searchTerms;
      heapSettle();
      const started = performance.now();
      for (const t of texts) sink += tokenize(t).length;
      if (run >= 0) times[which].push(performance.now() - started);
    }
  }
  if (sink < 0) console.log(sink);
  return { old: percentile(times.old, 0.5), now: percentile(times.now, 0.5) };
}

// On ASCII text the two must give the same terms: the new one only adds other scripts.
const differ = asciiOnly.filter((t) => asciiSearchTerms(t).join(" ") !== searchTerms(t).join(" ")).length;
console.log(`search-terms: ${files.length} files of src/ (${srcChunks.length} chunks, ${mb(srcChunks).toFixed(2)} M chars, ${srcChunks.length - asciiOnly.length} chunks with non-ASCII); ${RUNS} runs, medians; ASCII chunks with other terms than before: ${differ}`);

const inputs: Array<[string, readonly string[]]> = [
  ["src/ chunks", srcChunks],
  ["src/ chunks, ASCII only", asciiOnly],
  ["code with non-ASCII comments", foreignChunks],
];
const rows: Array<Array<string | number>> = [];
let srcNow = 0;
let srcOld = 0;
for (const [name, texts] of inputs) {
  const { old, now } = timeBoth(texts);
  if (texts === srcChunks) [srcOld, srcNow] = [old, now];
  rows.push([`${name}: ASCII-only (baseline)`, old, mb(texts) / (old / 1000), 1]);
  rows.push([`${name}: any script (now)`, now, mb(texts) / (now / 1000), now / old]);
}
printTable(["tokenizing", "time (ms)", "M chars/s", "ratio"], rows, [0, 1, 1, 2]);

// What a workspace index build costs in all (chunking, tokenizing, postings), current code.
const builds: number[] = [];
for (let run = -2; run < RUNS; run++) {
  heapSettle();
  const started = performance.now();
  const index = new Bm25Index();
  for (const f of files) index.setFile(f.path, chunkText(f.path, f.text));
  if (run >= 0) builds.push(performance.now() - started);
}
const build = percentile(builds, 0.5);
// The same build with the old tokenizer, estimated: the tokenizing time swapped for the old one's.
const buildBefore = build - srcNow + srcOld;
printTable(
  ["indexing src/ (chunk + tokenize + postings)", "time (ms)", "ratio"],
  [
    ["with the ASCII-only tokenizer (estimated)", buildBefore, 1],
    ["now", build, build / buildBefore],
  ],
  [0, 1, 2],
);
console.log(`tokenizing is ${((100 * srcNow) / build).toFixed(0)}% of the index build now`);
