// npm run train-image-model's last step: the exported ONNX files, the tokenizer and the configs
// into an SD-style folder (--out, models/wisp-tiny-diffusion), then a check that onnxruntime-node
// gives what PyTorch gave for the same inputs (parity.json) and that the server's CLIP tokenizer
// gives the training script's token ids. A model that fails either is not written.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import * as ort from "onnxruntime-node";
import { ClipTokenizer } from "../../../src/server/engines/image/clip-tokenizer";
import { diffusionConfigFiles, writeModelFolder } from "../../../src/server/engines/image/default-model/default-image-model";
import { guidanceInterval } from "../../../src/server/engines/image/diffusion-pipeline";
import { IMAGE_LIMITS } from "../../../src/server/engines/image/image-limits";

const PARTS = ["text_encoder", "unet", "vae_decoder"] as const;
/** float32 in two frameworks, different kernels: far below what changes a pixel (1/127.5). */
const TOLERANCE = 2e-3;

interface Parity {
  prompt: string;
  input_ids: number[];
  last_hidden_state: number[];
  latent: number[];
  latent_dims: number[];
  timestep: number;
  out_sample: number[];
  latent_sample: number[];
  latent_sample_dims: number[];
  sample: number[];
}

const { values } = parseArgs({
  options: { run: { type: "string" }, tokenizer: { type: "string" }, out: { type: "string" }, guidance: { type: "string" }, "guidance-interval": { type: "string" } },
});
if (!values.run || !values.tokenizer || !values.out) throw new Error("usage: assemble-model.ts --run DIR --tokenizer DIR --out DIR [--guidance G] [--guidance-interval LOW,HIGH]");
const guidanceScale = values.guidance === undefined ? undefined : Number(values.guidance);
if (guidanceScale !== undefined && !(guidanceScale >= 0 && guidanceScale <= IMAGE_LIMITS.maxGuidanceScale)) {
  throw new Error(`--guidance ${values.guidance}: a number from 0 to ${IMAGE_LIMITS.maxGuidanceScale}`);
}
// The noise levels (sigma) guidance is applied at: above LOW, at most HIGH.
const interval = values["guidance-interval"] === undefined ? undefined : guidanceInterval(values["guidance-interval"].split(",").map(Number));
if (values["guidance-interval"] !== undefined && interval === undefined) {
  throw new Error(`--guidance-interval ${values["guidance-interval"]}: two noise levels LOW,HIGH with 0 <= LOW < HIGH`);
}
const vocab = JSON.parse(await readFile(join(values.tokenizer, "vocab.json"), "utf8")) as Record<string, number>;
const merges = (await readFile(join(values.tokenizer, "merges.txt"), "utf8")).split("\n").filter((l) => l && !l.startsWith("#version"));
const files = diffusionConfigFiles(
  { vocab, merges },
  // The latent is the picture averaged over 8x8 blocks, in [-1, 1]: no scaling. train_image.py
  // trains the UNet on 256 x 256 pictures' 32 x 32 latents only, so that is the size a request
  // without one gets (at 512 x 512 the shipped model draws the right shape half as often).
  { predictionType: "v_prediction", latentChannels: 3, scalingFactor: 1, generator: "wisp scripts/train/image (npm run train-image-model)", guidanceScale, guidanceInterval: interval, sampleSize: 32 },
);
for (const part of PARTS) files.push([`${part}/model.onnx`, await readFile(join(values.run, part, "model.onnx"))]);

// Checked in a staging copy first: the shipped folder only ever holds a model that passed.
const staging = await mkdtemp(join(os.tmpdir(), "wisp-image-model-"));
try {
  await writeModelFolder(join(staging, "model"), files);
  await checkParity(join(staging, "model"), JSON.parse(await readFile(join(values.run, "parity.json"), "utf8")) as Parity);
} finally {
  await rm(staging, { recursive: true, force: true });
}
await writeModelFolder(values.out, files);
console.log(`wrote ${values.out}`);

async function checkParity(dir: string, parity: Parity): Promise<void> {
  const ids = (await ClipTokenizer.load(join(dir, "tokenizer"))).encode(parity.prompt);
  if (Array.from(ids).join() !== parity.input_ids.join()) throw new Error(`the CLIP tokenizer and the training script tokenize "${parity.prompt}" differently`);
  const session = (part: string) => ort.InferenceSession.create(join(dir, part, "model.onnx"));
  const first = async (part: string, feeds: Record<string, ort.Tensor>) => {
    const s = await session(part);
    const out = (await s.run(feeds))[s.outputNames[0]!]!.data as Float32Array;
    await s.release();
    return out;
  };
  const hidden = await first("text_encoder", { input_ids: new ort.Tensor("int64", BigInt64Array.from(Array.from(ids, BigInt)), [1, ids.length]) });
  compare("text_encoder", hidden, parity.last_hidden_state);
  const unet = await first("unet", {
    sample: new ort.Tensor("float32", Float32Array.from(parity.latent), parity.latent_dims),
    timestep: new ort.Tensor("float32", Float32Array.of(parity.timestep), [1]),
    encoder_hidden_states: new ort.Tensor("float32", Float32Array.from(parity.last_hidden_state), [1, ids.length, parity.last_hidden_state.length / ids.length]),
  });
  compare("unet", unet, parity.out_sample);
  const picture = await first("vae_decoder", { latent_sample: new ort.Tensor("float32", Float32Array.from(parity.latent_sample), parity.latent_sample_dims) });
  compare("vae_decoder", picture, parity.sample);
}

function compare(part: string, got: Float32Array, expected: number[]): void {
  if (got.length !== expected.length) throw new Error(`${part}: onnxruntime gave ${got.length} values, PyTorch ${expected.length}`);
  const worst = expected.reduce((max, value, i) => Math.max(max, Math.abs(value - got[i]!)), 0);
  if (!(worst <= TOLERANCE)) throw new Error(`${part}: onnxruntime differs from PyTorch by up to ${worst}`);
  console.log(`${part}: onnxruntime matches PyTorch (largest difference ${worst.toExponential(1)})`);
}
