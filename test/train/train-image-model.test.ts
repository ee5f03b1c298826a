import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { DiffusionPipeline } from "../../src/server/engines/image/diffusion-pipeline";

// scripts/train/image: a tiny run of the image model's training, stopped and resumed, then the
// folder the server loads. Needs Debian's python3-torch (npm run train-image-model installs it);
// run with `npm run test:train`.
const PYTHON = process.env.WISP_PYTHON ?? "/usr/bin/python3";
const TRAIN = path.resolve("scripts/train/image/train_image.py");
const TINY = ["--decoder-steps", "2", "--steps", "2", "--batch", "4"];

function run(command: string, args: string[], input?: string): string {
  const result = spawnSync(command, args, { encoding: "utf8", input });
  assert.equal(result.status, 0, `${command} ${args.join(" ")} failed:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

describe("train-image-model: the tokenizer, a run stopped and resumed, the folder the server loads", function () {
  this.timeout(300_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), "wisp-train-image-"));
    const captions = run(PYTHON, [TRAIN, "--tokenizer", "-", "--out", "-", "--captions", "2000"]);
    run("npx", ["tsx", "scripts/train/image/write-tokenizer.ts", "--out", path.join(dir, "tokenizer")], captions);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const parity = (out: string) => JSON.parse(readFileSync(path.join(dir, out, "parity.json"), "utf8")) as Record<string, unknown>;
  const train = (out: string, ...more: string[]) => run(PYTHON, ["-u", TRAIN, "--tokenizer", path.join(dir, "tokenizer"), "--out", path.join(dir, out), ...TINY, ...more]);

  it("stopped after every step and resumed, it exports what one run straight through exports", () => {
    train("straight");
    // --minutes that any step outlasts: each run trains one step, checkpoints and stops.
    let runs = 0;
    while (!train("resumed", "--resume", "--minutes", "0.0001").includes("exported")) runs++;
    assert.ok(runs >= 3, `stopped ${runs} times`);
    assert.deepEqual(parity("resumed"), parity("straight"));
  });

  it("draws the same pictures in data workers, and a kept weights file exports what the run exported", () => {
    train("workers", "--workers", "2", "--keep", "2");
    assert.deepEqual(parity("workers"), parity("straight"));
    train("kept", "--export-only", "--weights", path.join(dir, "workers", "weights-2.pt"));
    assert.deepEqual(parity("kept"), parity("straight"));
  });

  it("goes on from a kept weights file (--init): the decoder kept, the denoiser trained further, --more shapes drawn more often", () => {
    const printed = train("init", "--init", path.join(dir, "workers", "weights-2.pt"), "--more", "star,ring");
    assert.match(printed, /started from .*weights-2\.pt/);
    assert.doesNotMatch(printed, /decoder step \d/, "no decoder steps");
    const [from, on] = [parity("straight"), parity("init")];
    assert.deepEqual(on.sample, from.sample, "the decoder's output");
    assert.notDeepEqual(on.out_sample, from.out_sample, "the denoiser's output");
    const counted = run(PYTHON, [
      "-c",
      "import sys, collections, numpy as np; sys.path.insert(0, 'scripts/train/image'); import shapes, train_image as t;" +
        "rng = np.random.default_rng(1); w = t.shape_weights('star,ring');" +
        "print(dict(collections.Counter(shapes.sample_spec(rng, w)['shape'] for _ in range(6000))))",
    ]);
    const shares = JSON.parse(counted.trim().replaceAll("'", '"')) as Record<string, number>;
    for (const shape of ["star", "ring"]) for (const other of ["circle", "square", "triangle", "stripes"]) assert.ok(shares[shape]! > 1.6 * shares[other]!, `${shape} ${shares[shape]} against ${other} ${shares[other]}`);
    const bad = spawnSync(PYTHON, [TRAIN, "--tokenizer", path.join(dir, "tokenizer"), "--out", path.join(dir, "bad"), ...TINY, "--more", "hexagon"], { encoding: "utf8" });
    assert.notEqual(bad.status, 0);
    assert.match(bad.stderr, /--more: hexagon is not one of circle/);
  });

  it("reads an exported folder's weights back: the shipped model exports to the same bytes, and --init goes on from a folder", () => {
    const shipped = path.resolve("models/wisp-tiny-diffusion");
    const out = path.join(dir, "shipped-again");
    run(PYTHON, [TRAIN, "--tokenizer", path.join(shipped, "tokenizer"), "--out", out, "--export-only", "--weights", shipped]);
    for (const part of ["text_encoder", "unet", "vae_decoder"]) {
      assert.ok(readFileSync(path.join(out, part, "model.onnx")).equals(readFileSync(path.join(shipped, part, "model.onnx"))), `${part}/model.onnx`);
    }
    const printed = train("init-folder", "--init", path.join(dir, "straight"));
    assert.match(printed, /started from .*straight/);
    const [from, on] = [parity("straight"), parity("init-folder")];
    assert.deepEqual(on.sample, from.sample, "the decoder's output");
    assert.notDeepEqual(on.out_sample, from.out_sample, "the denoiser's output");
    const other = spawnSync(PYTHON, [TRAIN, "--tokenizer", path.join(dir, "tokenizer"), "--out", path.join(dir, "wide"), ...TINY, "--init", path.join(dir, "straight"), "--width", "64"], { encoding: "utf8" });
    assert.notEqual(other.status, 0);
    assert.match(other.stderr, /the checkpoint is of another model/);
  });

  it("assembles an SD-style folder that onnxruntime runs as PyTorch did, and the server's pipeline draws with it", async () => {
    const model = path.join(dir, "model");
    const printed = run("npx", ["tsx", "scripts/train/image/assemble-model.ts", "--run", path.join(dir, "straight"), "--tokenizer", path.join(dir, "tokenizer"), "--out", model, "--guidance", "2", "--guidance-interval", "0.8,5"]);
    assert.match(printed, /unet: onnxruntime matches PyTorch/);
    const pipeline = await DiffusionPipeline.load(model);
    assert.equal(pipeline.defaultGuidanceScale, 2, "the folder's default guidance");
    assert.deepEqual(pipeline.guidanceInterval, [0.8, 5], "the noise levels it is applied at");
    assert.equal(pipeline.defaultSize, 256, "the size it trains at, from unet/config.json");
    try {
      // 72 pixels: a latent side of 9, which the denoiser pads to its patches and cuts back.
      const [image] = await pipeline.generate({ prompt: "a red circle on a blue background", negativePrompt: "", width: 72, height: 64, steps: 2, seed: 1, guidanceScale: 7.5, count: 1 });
      assert.equal(image!.pixels.length, 72 * 64 * 3);
    } finally {
      await pipeline.release();
    }
  });
});
