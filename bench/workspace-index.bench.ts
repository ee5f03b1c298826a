// Workspace index on a generated 5,000-file workspace of real source files (copied from the
// installed packages' JavaScript, TypeScript and Python): indexing time and memory, how long the
// event loop waited while indexing ran in slices (the extension host's typing must never wait more
// than 50 ms), and the time to answer a question, each beside a baseline measured in the same run:
// reading the files without indexing them, and scanning every chunk for the question's words. A
// build again after a rule changed is timed too: files unchanged on disk are only stat'ed.
// Run with `npx tsx bench/workspace-index.bench.ts` (or `npm run bench`).
import { mkdtempSync, rmSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { Bm25Index } from "../src/core/context/bm25-index";
import { chunkText, type Chunk } from "../src/core/context/chunker";
import { searchTerms } from "../src/core/context/identifiers";
import { relevantSnippets } from "../src/core/context/relevant-snippets";
import { slicedLoop } from "../src/core/context/sliced-loop";
import { percentile, printTable } from "./typing/table";
import { copySourceFiles } from "./workspace-files";

const FILES = 5000;
const QUERIES = 300;
const SLICE_MS = 8;

const root = mkdtempSync(path.join(tmpdir(), "wisp-index-bench-"));
const { files, candidates } = copySourceFiles(path.resolve("node_modules"), root, FILES);
console.log(`workspace-index: ${files.length} files from ${candidates} installed sources, in ${root}`);

/** Runs `work` over the files in slices, measuring the wall time and the event loop's longest wait. */
async function sliced(work: (relative: string) => Promise<void>): Promise<{ ms: number; lagMax: number; lagP99: number }> {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const started = performance.now();
  await slicedLoop(files, work, { sliceMs: SLICE_MS, yieldToHost: () => new Promise((resolve) => setImmediate(resolve)) });
  const ms = performance.now() - started;
  delay.disable();
  return { ms, lagMax: delay.max / 1e6, lagP99: delay.percentile(99) / 1e6 };
}

const read = await sliced(async (relative) => void (await readFile(path.join(root, relative), "utf8")));
/** Heap in use after a full collection, when the bench runs with --expose-gc (npm run bench does). */
const heapNow = () => (globalThis.gc?.(), process.memoryUsage().heapUsed);
const heapBefore = heapNow();
const index = new Bm25Index();
const indexed = await sliced(async (relative) => {
  const text = await readFile(path.join(root, relative), "utf8");
  index.setFile(relative, chunkText(relative, text));
});
const heapMb = (heapNow() - heapBefore) / 2 ** 20;
// A build again after a rule changed (.gitignore, files.exclude): each file the index holds as it
// is on disk is taken in by its time, a stat, instead of being read and indexed again.
const readAt = Date.now();
const restat = await sliced(async (relative) => {
  if ((await stat(path.join(root, relative))).mtimeMs >= readAt) throw new Error(`${relative} changed during the bench`);
});

// Questions about names the files define: "where is <name> defined and how is it used?"
const chunks: Chunk[] = [];
for (const relative of files) chunks.push(...chunkText(relative, await readFile(path.join(root, relative), "utf8")));
const named = chunks.filter((c) => c.defines.some((d) => d.length >= 6));
const questions = Array.from({ length: QUERIES }, (_, i) => {
  const chunk = named[Math.floor((i * named.length) / QUERIES)]!;
  const name = chunk.defines.find((d) => d.length >= 6)!;
  return { text: `where is ${name} defined and what does it return?`, path: chunk.path };
});

function naiveScan(question: string): Chunk[] {
  const terms = [...new Set(searchTerms(question))];
  return chunks
    .map((c) => ({ c, score: terms.reduce((sum, t) => sum + (c.text.toLowerCase().includes(t) ? 1 : 0), 0) }))
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, 3)
    .map((x) => x.c);
}

const indexTimes: number[] = [];
const scanTimes: number[] = [];
let indexHits = 0;
let scanHits = 0;
for (const q of questions) {
  let t = performance.now();
  const hits = relevantSnippets(index, q.text);
  indexTimes.push(performance.now() - t);
  if (hits.some((h) => h.chunk.path === q.path)) indexHits++;
  t = performance.now();
  const scanned = naiveScan(q.text);
  scanTimes.push(performance.now() - t);
  if (scanned.some((c) => c.path === q.path)) scanHits++;
}
rmSync(root, { recursive: true, force: true });

printTable(
  ["indexing 5,000 files", "time (ms)", "ratio", "loop wait max (ms)", "loop wait p99 (ms)"],
  [
    ["read only (baseline)", read.ms, 1, read.lagMax, read.lagP99],
    ["read + chunk + index", indexed.ms, indexed.ms / read.ms, indexed.lagMax, indexed.lagP99],
    ["again, files unchanged (stat)", restat.ms, restat.ms / read.ms, restat.lagMax, restat.lagP99],
  ],
  [0, 0, 2, 1, 1],
);
console.log(`index: ${index.fileCount} files, ${index.chunkCount} chunks, ${heapMb.toFixed(0)} MB of heap${globalThis.gc ? "" : " (run with --expose-gc for the size after collection)"}`);
printTable(
  [`${QUERIES} questions`, "p50 (ms)", "p95 (ms)", "p95 ratio", "defining file in top 3"],
  [
    ["scan every chunk (baseline)", percentile(scanTimes, 0.5), percentile(scanTimes, 0.95), 1, `${((100 * scanHits) / QUERIES).toFixed(0)}%`],
    ["BM25 index", percentile(indexTimes, 0.5), percentile(indexTimes, 0.95), percentile(indexTimes, 0.95) / percentile(scanTimes, 0.95), `${((100 * indexHits) / QUERIES).toFixed(0)}%`],
  ],
  [0, 2, 2, 3],
);
