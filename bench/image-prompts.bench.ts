// Does the embedded default image model follow the prompt? The shipped trained model
// (models/wisp-tiny-diffusion) and, as the floor, the random-weight model the server generates
// where none is shipped, draw the held-out prompts (bench/image/held-out-prompts.ts) at 256 x 256
// with the server's default steps and each model's default guidance; bench/image/shape-scorer.ts checks each picture.
// Prints, per prompt kind, the share with both colours right and with the shape right, the
// model's size and the time per picture. Targets: colours >= 85%, shapes >= 60%.
//   npx tsx bench/image-prompts.bench.ts [--show N] [--size S] [--steps N] [--guidance G] [--prompts held-out|dev] [--model DIR] [--seeds N]
// (--show: the first N pictures, described; --size, --steps: another size or step count, e.g.
// the image command's defaults, 512 and 4; --guidance: another guidance scale; --prompts dev:
// combinations seen in training instead of the held-out ones, for choosing settings; --model:
// another trained folder, e.g. half way; --seeds N: each prompt drawn with N seeds from 42 on, for
// settings chosen on more pictures than 72, the counts printed beside the shares;
// IMAGE_BENCH_FLOOR=0 leaves out the random-weight model's rows).
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { writeDiffusionModel } from "../src/server/engines/image/default-model/default-image-model";
import { DiffusionPipeline } from "../src/server/engines/image/diffusion-pipeline";
import { IMAGE_LIMITS } from "../src/server/engines/image/image-limits";
import { type BenchPrompt, devPrompts, heldOutPrompts, PROMPT_KINDS } from "./image/held-out-prompts";
import { scorePicture, type Seen } from "./image/shape-scorer";

const SEED = 42;
const { values } = parseArgs({
  options: {
    show: { type: "string", default: "0" },
    size: { type: "string", default: "256" },
    model: { type: "string", default: path.join(import.meta.dirname, "..", "models", "wisp-tiny-diffusion") },
    steps: { type: "string", default: String(IMAGE_LIMITS.defaultSteps) },
    guidance: { type: "string" },
    prompts: { type: "string", default: "held-out" },
    seeds: { type: "string", default: "1" },
  },
});
if (values.prompts !== "held-out" && values.prompts !== "dev") throw new Error("--prompts is held-out (the result) or dev (combinations seen in training, for choosing settings)");
const PROMPTS = values.prompts === "dev" ? devPrompts() : heldOutPrompts();
const GUIDANCE = values.guidance === undefined ? undefined : Number(values.guidance);
const TRAINED = values.model;
const SIZE = Number(values.size);
const STEPS = Number(values.steps);
const SEEDS = Array.from({ length: Number(values.seeds) }, (_, i) => SEED + i);

interface Result extends BenchPrompt {
  seen: Seen;
  ms: number;
}

async function run(dir: string): Promise<{ results: Result[]; guidance: number }> {
  const pipeline = await DiffusionPipeline.load(dir, { threads: 2 });
  const guidance = GUIDANCE ?? pipeline.defaultGuidanceScale;
  const results: Result[] = [];
  for (const seed of SEEDS) for (const prompt of PROMPTS) {
    const started = performance.now();
    const [image] = await pipeline.generate({
      prompt: prompt.prompt,
      negativePrompt: "",
      width: SIZE,
      height: SIZE,
      steps: STEPS,
      seed,
      guidanceScale: guidance,
      count: 1,
    });
    results.push({ ...prompt, seen: scorePicture(image!.pixels, SIZE, SIZE), ms: performance.now() - started });
  }
  await pipeline.release();
  return { results, guidance };
}

const coloursRight = (r: Result) => r.seen.colour === r.colour && r.seen.background === r.background;
const share = (results: Result[], right: (r: Result) => boolean) => `${Math.round((100 * results.filter(right).length) / results.length)}%`.padStart(5);

function table(name: string, { results, guidance }: { results: Result[]; guidance: number }): void {
  console.log(`\n${name}: ${results.length} pictures, guidance ${guidance}`);
  console.log("  kind        n  colours  shape  background  shape colour");
  for (const kind of [...PROMPT_KINDS, "all"] as const) {
    const some = kind === "all" ? results : results.filter((r) => r.kind === kind);
    const cells = [share(some, coloursRight), share(some, (r) => r.seen.shape === r.shape), share(some, (r) => r.seen.background === r.background), share(some, (r) => r.seen.colour === r.colour)];
    console.log(`  ${kind.padEnd(9)} ${String(some.length).padStart(3)}    ${cells[0]}  ${cells[1]}       ${cells[2]}         ${cells[3]}`);
  }
  const count = (right: (r: Result) => boolean) => `${results.filter(right).length} of ${results.length}`;
  console.log(`  right: colours ${count(coloursRight)}, shape ${count((r) => r.seen.shape === r.shape)}`);
  // Which shapes it draws, and what it draws instead.
  const shapes = [...new Set(results.map((r) => r.shape))];
  console.log(`  shape right: ${shapes.map((shape) => `${shape} ${share(results.filter((r) => r.shape === shape), (r) => r.seen.shape === shape).trim()}`).join(", ")}`);
}

async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(path.join(entry.parentPath, entry.name))).size;
  }
  return total;
}

const temp = await mkdtemp(path.join(os.tmpdir(), "wisp-image-prompts-"));
try {
  const trained = await run(TRAINED);
  table(`trained (${path.relative(process.cwd(), TRAINED)})`, trained);
  if (process.env.IMAGE_BENCH_FLOOR !== "0") {
    const randomDir = path.join(temp, "random");
    await writeDiffusionModel(randomDir);
    table("random weights (the generated fallback)", await run(randomDir));
  }
  const times = trained.results.map((r) => r.ms).sort((a, b) => a - b);
  console.log(`\ntrained model: ${((await folderBytes(TRAINED)) / 2 ** 20).toFixed(1)} MiB; ${SIZE}x${SIZE}, ${STEPS} steps: median ${Math.round(times[times.length >> 1]!)} ms a picture (2 threads)`);
  for (const r of trained.results.slice(0, Number(values.show))) console.log(`  "${r.prompt}" -> ${r.seen.colour} ${r.seen.shape} on ${r.seen.background}`);
} finally {
  await rm(temp, { recursive: true, force: true });
}
