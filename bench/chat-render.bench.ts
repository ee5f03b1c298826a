// Chat rendering: a 2,000-token streamed answer with code blocks, rendered the way the chat panel
// does it (only the part after the last stable block boundary again on each frame) against the
// baseline of rendering the whole answer again on each frame, in headless Chromium, with the
// panel's own markdown-it + DOMPurify + highlight.js code and stylesheet.
// Run with `npx tsx bench/chat-render.bench.ts` (or `npm run bench`).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { launchChromium } from "../test/harness/browser";
import { longAnswer, tokenPieces } from "../test/harness/scripted-chat-server";
import { ensureToolchain, hasChromium, repoRoot } from "../test/harness/toolchain";
import type { RenderMode } from "./chat-render/page";

const frameMs = 1000 / 60;
const runs = 3;
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? NaN;
const median = (xs: number[]) => percentile(xs, 0.5);

const toolchain = ensureToolchain();
if (!hasChromium(toolchain)) {
  console.log("chat-render: no Chromium (run npm run setup:vscode); skipped");
  process.exit(0);
}
const bundle = await build({ entryPoints: [join(repoRoot, "bench/chat-render/page.ts")], bundle: true, write: false, format: "iife", platform: "browser", target: "es2022", minify: true });
const css = readFileSync(join(repoRoot, "media/chat.css"), "utf8");
const pieces = tokenPieces(longAnswer(2000));

const browser = await launchChromium(toolchain);
try {
  const page = await browser.newPage({ viewport: { width: 400, height: 800 } });
  await page.setContent(`<!DOCTYPE html><html><head><style>${css}</style></head><body><main class="conversation"><div id="out"></div></main></body></html>`);
  await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
  const rows: { label: string; steps: number[]; totals: number[] }[] = [];
  // One token per frame (a slow stream), and 8 per frame (~500 tokens/s at 60 frames/s).
  for (const perStep of [1, 8]) {
    const results: Record<RenderMode, { steps: number[]; totals: number[] }> = { incremental: { steps: [], totals: [] }, full: { steps: [], totals: [] } };
    for (let run = 0; run < runs; run++) {
      for (const mode of ["incremental", "full"] as const) {
        const times = await page.evaluate(({ pieces, perStep, mode }) => (window as unknown as { runRender: (p: string[], n: number, m: string) => number[] }).runRender(pieces, perStep, mode), { pieces, perStep, mode });
        results[mode].steps.push(...times);
        results[mode].totals.push(times.reduce((a, b) => a + b, 0));
      }
    }
    rows.push({ label: `incremental, ${perStep} token/frame`, ...results.incremental }, { label: `full re-render, ${perStep} token/frame`, ...results.full });
  }
  console.log(`chat-render: ${pieces.length} tokens, ${runs} interleaved runs, ms per frame (render + layout)`);
  console.log("| approach | p50 | p95 | max | frames over 16.7 ms | total (median) | total vs full re-render |");
  console.log("|---|---:|---:|---:|---:|---:|---:|");
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const baseline = rows[i % 2 === 0 ? i + 1 : i]!;
    const over = row.steps.filter((t) => t > frameMs).length / runs;
    const ratio = median(row.totals) / median(baseline.totals);
    console.log(`| ${row.label} | ${percentile(row.steps, 0.5).toFixed(2)} | ${percentile(row.steps, 0.95).toFixed(2)} | ${Math.max(...row.steps).toFixed(1)} | ${over.toFixed(0)} | ${median(row.totals).toFixed(0)} | ${ratio.toFixed(3)}x |`);
  }
} finally {
  await browser.close();
}
