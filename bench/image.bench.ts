// Image pipeline benchmark on the generated default model, all in the same run:
// (1) the pipeline's own cost over the onnxruntime model runs it makes (target <= 5%): per
//     generation, total time / sum of session.run times of text encoder, UNet and VAE; median;
// (2) the server event loop's worst delay while the worker generates (target < 20 ms), next to
//     the same measure with nothing running (the machine's own noise).
import { mkdtemp, rm } from "node:fs/promises";
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
} finally {
  await engine.dispose();
  await rm(dir, { recursive: true, force: true });
}
