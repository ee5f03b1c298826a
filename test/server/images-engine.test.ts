import assert from "node:assert/strict";
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type DiffusionModelOptions, writeDiffusionModel } from "../../src/server/engines/image/default-model/default-image-model";
import { DiffusionPipeline, type GenerationParams } from "../../src/server/engines/image/diffusion-pipeline";
import { GenerationCancelledError } from "../../src/server/engines/image/image-errors";
import { ImageEngine } from "../../src/server/engines/image/image-engine";

const params: GenerationParams = { prompt: "a small boat", negativePrompt: "", width: 64, height: 96, steps: 4, seed: 3, guidanceScale: 7.5, count: 1 };

// The engine in its worker thread on model variants that real exports come in.
describe("image engine on generated model variants", function () {
  this.timeout(60_000);
  let dir: string;
  let engine: ImageEngine;
  const variants: Record<string, DiffusionModelOptions> = {
    "float32-timestep": { timestepType: "float32" },
    "float16-timestep-external-weights": { timestepType: "float16", externalData: true },
    "int64-timestep-ancestral": { timestepType: "int64", scheduler: "EulerAncestralDiscreteScheduler" },
    "unet-batch-of-one": { unetBatchOfOne: true },
  };

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "wisp-image-engine-"));
    for (const [name, options] of Object.entries(variants)) await writeDiffusionModel(path.join(dir, name), options);
    engine = new ImageEngine({ threads: 1, maxQueue: 4 });
  });
  after(async () => {
    await engine.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  const run = (name: string, overrides: Partial<GenerationParams> = {}, options = {}) =>
    engine.generate(name, path.join(dir, name), { ...params, ...overrides }, options);
  /** A copy of variant `from` whose model_index.json sets _wisp_guidance_interval; its name. */
  const withInterval = async (from: string, interval: [number, number]) => {
    const name = `${from}-interval-${interval.join("-")}`;
    await cp(path.join(dir, from), path.join(dir, name), { recursive: true });
    const index = path.join(dir, name, "model_index.json");
    await writeFile(index, JSON.stringify({ ...JSON.parse(await readFile(index, "utf8")), _wisp_guidance_interval: interval }));
    return name;
  };

  it("writes the UNet weights as an external data file when asked", async () => {
    assert.deepEqual((await readdir(path.join(dir, "float16-timestep-external-weights", "unet"))).sort(), ["model.onnx", "model.onnx_data"]);
    assert.deepEqual(await readdir(path.join(dir, "float32-timestep", "unet")), ["model.onnx"]);
  });

  for (const name of Object.keys(variants)) {
    it(`generates reproducible ${name} images of the asked size`, async () => {
      const [first] = await run(name);
      const [again] = await run(name);
      assert.equal(first!.pixels.length, 64 * 96 * 3);
      assert.deepEqual(first!.pixels, again!.pixels);
      const [other] = await run(name, { seed: 4 });
      assert.notDeepEqual(other!.pixels, first!.pixels);
    });
  }

  it("guides only the steps whose noise level is inside the folder's _wisp_guidance_interval", async () => {
    const pixelsWith = async (interval: [number, number]) => (await run(await withInterval("float32-timestep", interval)))[0]!.pixels;
    const [guided] = await run("float32-timestep");
    const [unguided] = await run("float32-timestep", { guidanceScale: 1 });
    assert.notDeepEqual(guided!.pixels, unguided!.pixels);
    // At 4 steps the noise levels are about 14.6, 2.9, 0.93 and 0.03.
    assert.deepEqual(await pixelsWith([0, 100]), guided!.pixels, "every step inside");
    const some = await pixelsWith([0.5, 5]);
    const differs = (pixels: Uint8Array, from: Uint8Array) => !Buffer.from(pixels).equals(Buffer.from(from));
    assert.ok(differs(some, guided!.pixels) && differs(some, unguided!.pixels), "two steps of four guided");
    const nearest = await pixelsWith([100, 200]);
    assert.ok(differs(nearest, guided!.pixels) && differs(nearest, unguided!.pixels), "no step inside: the nearest one (14.6) guided, the others not");
  });

  it("runs the UNet on the prompt's row alone at the steps outside the interval", async () => {
    const name = await withInterval("unet-batch-of-one", [0.5, 5]);
    const unetRuns = async (folder: string) => {
      const pipeline = await DiffusionPipeline.load(path.join(dir, folder));
      let runs = 0;
      await pipeline.generate(params, { onSessionRun: (model) => void (model === "unet" && runs++) });
      await pipeline.release();
      return runs;
    };
    // A batch-of-one UNet runs once per row: two runs at a guided step, one at an unguided one.
    assert.equal(await unetRuns("unet-batch-of-one"), 8, "every step guided");
    assert.equal(await unetRuns(name), 6, "noise levels 14.6 and 0.03 are outside (0.5, 5]: the prompt's row only");
  });

  it("draws at 512 x 512 when neither the request nor the folder (no unet/config.json) names a size, at 8 x sample_size where it does", async () => {
    const [unsized] = await run("float32-timestep", { width: undefined, height: undefined, steps: 1 });
    assert.deepEqual([unsized!.width, unsized!.height, unsized!.pixels.length], [512, 512, 512 * 512 * 3]);
    await writeDiffusionModel(path.join(dir, "sample-size-12"));
    await writeFile(path.join(dir, "sample-size-12", "unet", "config.json"), JSON.stringify({ sample_size: 12 }));
    const [native] = await run("sample-size-12", { width: undefined, height: 64, steps: 1 });
    assert.deepEqual([native!.width, native!.height], [96, 64], "the model's width, the asked height");
  });

  it("runs guidance row by row on a UNet exported with batch size 1, to the same image", async () => {
    const [batched] = await run("float32-timestep");
    const [rowByRow] = await run("unet-batch-of-one");
    const largest = Math.max(...batched!.pixels.map((v, i) => Math.abs(v - rowByRow!.pixels[i]!)));
    assert.ok(largest <= 1, `pixels differ by up to ${largest}`);
  });

  it("generates the same model bytes every time", async () => {
    const again = path.join(dir, "float32-again");
    await writeDiffusionModel(again, variants["float32-timestep"]);
    for (const file of ["unet/model.onnx", "text_encoder/model.onnx", "vae_decoder/model.onnx", "tokenizer/vocab.json", "tokenizer/merges.txt"]) {
      assert.ok((await readFile(path.join(again, file))).equals(await readFile(path.join(dir, "float32-timestep", file))), file);
    }
  });

  it("same weights, different scheduler: ancestral sampling gives another image", async () => {
    const ancestralDir = path.join(dir, "float32-ancestral");
    await writeDiffusionModel(ancestralDir, { scheduler: "EulerAncestralDiscreteScheduler" });
    const [euler] = await run("float32-timestep");
    const [ancestral] = await engine.generate("float32-ancestral", ancestralDir, params);
    assert.notDeepEqual(ancestral!.pixels, euler!.pixels);
  });

  it("stops a running generation between steps when its signal aborts", async () => {
    const controller = new AbortController();
    const progress: number[] = [];
    const result = run("float32-timestep", { steps: 100, width: 512, height: 512 }, {
      signal: controller.signal,
      onProgress: (done: number) => {
        progress.push(done);
        if (done === 3) controller.abort();
      },
    });
    await assert.rejects(result, GenerationCancelledError);
    assert.ok(progress.length >= 3 && progress.at(-1)! < 100, `progress: ${progress.join(",")}`);
    const [after] = await run("float32-timestep");
    assert.equal(after!.pixels.length, 64 * 96 * 3, "the worker still serves the next generation");
  });
});
