// Image pipeline benchmark on the generated default model, all in the same run:
// (1) the pipeline's own cost over the onnxruntime model runs it makes (target <= 5%): per
//     generation, total time / sum of session.run times of text encoder, UNet and VAE; median;
// (2) the server event loop's worst delay while the worker generates (target < 20 ms), next to
//     the same measure with nothing running (the machine's own noise);
// (3) the shipped trained model at its own settings (guidance only inside its noise interval, the
//     prompt's row alone at the other steps) against a copy guided at every step (both rows at
//     every step: what each picture cost before), interleaved, median time a picture.
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { ensureDefaultImageModel } from "../src/server/engines/image/default-model/default-image-model";
import { DiffusionPipeline, type GenerationParams, POSTPROCESS } from "../src/server/engines/image/diffusion-pipeline";
import { ImageEngine } from "../src/server/engines/image/image-engine";

const RUNS = 9;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function pipelineOverhead(modelDir: string, params: GenerationParams) {
  const pipeline = await DiffusionPipeline.load(modelDir);
  // Warm-up: the first generations allocate and compile; a server's steady state is what counts.
  for (let i = 0; i < 5; i++) await pipeline.generate(params);
  const runs = [];
  for (let i = 0; i < RUNS; i++) {
    let models = 0;
    let postprocess = 0;
    const started = performance.now();
    await pipeline.generate(params, {
      onSessionRun: (model, ms) => (model === POSTPROCESS ? (postprocess += ms) : (models += ms)),
    });
    runs.push({ total: performance.now() - started, models, postprocess });
  }
  await pipeline.release();
  const ratio = median(runs.map((r) => r.total / r.models));
  return { ratio, models: median(runs.map((r) => r.models)), total: median(runs.map((r) => r.total)), postprocess: median(runs.map((r) => r.postprocess)) };
}

/** Worst event-loop delay while `work` runs. */
async function loopDelay(work: () => Promise<unknown>) {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const started = performance.now();
  await work();
  const elapsed = performance.now() - started;
  histogram.disable();
  return { elapsed, maxMs: histogram.max / 1e6 };
}

/** Median ms a picture of the shipped model and of a copy whose model_index.json guides every step. */
async function intervalSaving(tempDir: string) {
  const shipped = path.join(import.meta.dirname, "..", "models", "wisp-tiny-diffusion");
  const everyStep = path.join(tempDir, "every-step");
  await cp(shipped, everyStep, { recursive: true });
  const { _wisp_guidance_interval: _, ...index } = JSON.parse(await readFile(path.join(shipped, "model_index.json"), "utf8"));
  await writeFile(path.join(everyStep, "model_index.json"), JSON.stringify(index));
  const pipelines = [await DiffusionPipeline.load(shipped, { threads: 2 }), await DiffusionPipeline.load(everyStep, { threads: 2 })];
  const times: number[][] = [[], []];
  for (let i = 0; i < 5 + 4 * RUNS; i++) {
    for (const [p, pipeline] of pipelines.entries()) {
      const started = performance.now();
      await pipeline.generate({ prompt: "a yellow star on a dark blue background", negativePrompt: "", steps: 20, seed: i, count: 1 });
      if (i >= 5) times[p]!.push(performance.now() - started);
    }
  }
  await Promise.all(pipelines.map((p) => p.release()));
  const [interval, every] = times.map(median) as [number, number];
  return { "every step guided ms (baseline)": every.toFixed(1), "interval, prompt row alone outside ms": interval.toFixed(1), "ratio (< 1 is faster)": (interval / every).toFixed(3) };
}

const dir = await mkdtemp(path.join(os.tmpdir(), "wisp-image-bench-"));
const engine = new ImageEngine({ threads: 1, maxQueue: 4 });
try {
  const modelDir = await ensureDefaultImageModel(dir);
  const rows = [];
  for (const size of [256, 512]) {
    const params: GenerationParams = { prompt: "a lighthouse at dawn", negativePrompt: "blurry", width: size, height: size, steps: 20, seed: 1, guidanceScale: 7.5, count: 1 };
    const inProcess = await pipelineOverhead(modelDir, params);
    await engine.generate("bench", modelDir, params); // starts the worker, loads the model
    const busy = await loopDelay(async () => {
      for (let i = 0; i < RUNS; i++) await engine.generate("bench", modelDir, params);
    });
    const idle = await loopDelay(() => sleep(busy.elapsed));
    rows.push({
      case: `${size}x${size}, 20 steps, CFG`,
      "model runs ms (baseline)": inProcess.models.toFixed(1),
      "pipeline ms": inProcess.total.toFixed(1),
      "of which pixels ms": inProcess.postprocess.toFixed(1),
      "pipeline / runs": inProcess.ratio.toFixed(3),
      "overhead % (<= 5)": ((inProcess.ratio - 1) * 100).toFixed(1),
      "worker ms / gen": (busy.elapsed / RUNS).toFixed(1),
      "loop max delay ms (< 20)": busy.maxMs.toFixed(1),
      "idle loop max delay ms": idle.maxMs.toFixed(1),
    });
  }
  console.table(rows);
  console.log("wisp-tiny-diffusion, 256x256, 20 steps, 2 threads:");
  console.table([await intervalSaving(dir)]);
} finally {
  await engine.dispose();
  await rm(dir, { recursive: true, force: true });
}
