import { existsSync } from "node:fs";
import { cp, mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { END_TOKEN, START_TOKEN } from "../clip-text";
import { CLIP_CONTEXT_LENGTH } from "../clip-tokenizer";
import { GaussianRandom } from "../gaussian-random";
import type { OnnxGraph } from "../onnx/onnx-graph";
import { type ClipVocabulary, trainClipVocabulary } from "./clip-vocab-trainer";
import { buildTextEncoderGraph } from "./text-encoder-graph";
import { TOKENIZER_CORPUS } from "./tokenizer-corpus";
import { buildUnetGraph, type UnetShape } from "./unet-graph";
import { buildVaeDecoderGraph } from "./vae-decoder-graph";

export const DEFAULT_IMAGE_MODEL_ID = "wisp-tiny-diffusion";

export interface DiffusionModelOptions {
  /** Seed of the random weights: the same options always give the same bytes. */
  seed?: number;
  timestepType?: UnetShape["timestepType"];
  /** Write the UNet's weights to unet/model.onnx_data, as large exports do. */
  externalData?: boolean;
  scheduler?: "EulerDiscreteScheduler" | "EulerAncestralDiscreteScheduler";
  /** Fix the UNet's batch dimension to 1, as some exports do. */
  unetBatchOfOne?: boolean;
  /** Fix the UNet's latent height and width (a static-shape export: one image size). */
  unetLatentSize?: number;
}

const HIDDEN_SIZE = 32;
const LATENT_CHANNELS = 4;

/**
 * Writes a tiny random-weight Stable-Diffusion-style model as a diffusers ONNX folder: what the
 * tests vary (external data, timestep types, a batch of one...) and the fallback default image
 * model where no trained one is shipped (models/wisp-tiny-diffusion, copied in by the extension).
 */
export async function writeDiffusionModel(dir: string, options: DiffusionModelOptions = {}): Promise<void> {
  const random = new GaussianRandom(options.seed ?? 1234);
  const { vocab, merges } = trainClipVocabulary(TOKENIZER_CORPUS, 400);
  const files = diffusionConfigFiles({ vocab, merges }, { scheduler: options.scheduler, latentChannels: LATENT_CHANNELS, scalingFactor: 0.18215 });
  const textEncoder = buildTextEncoderGraph({ vocabSize: Object.keys(vocab).length, contextLength: CLIP_CONTEXT_LENGTH, hiddenSize: HIDDEN_SIZE }, random);
  const unet = buildUnetGraph(
    { latentChannels: LATENT_CHANNELS, channels: 32, contextLength: CLIP_CONTEXT_LENGTH, hiddenSize: HIDDEN_SIZE, timestepType: options.timestepType ?? "float32", batch: options.unetBatchOfOne ? 1 : "batch", latentSize: options.unetLatentSize },
    random,
  );
  const vae = buildVaeDecoderGraph({ latentChannels: LATENT_CHANNELS, channels: [16, 12, 8, 8] }, random);
  files.push(...modelFiles("text_encoder", textEncoder, false), ...modelFiles("unet", unet, options.externalData ?? false), ...modelFiles("vae_decoder", vae, false));
  await writeModelFolder(dir, files);
}

export interface DiffusionConfig {
  scheduler?: "EulerDiscreteScheduler" | "EulerAncestralDiscreteScheduler";
  predictionType?: "epsilon" | "v_prediction";
  latentChannels: number;
  scalingFactor: number;
  /** model_index.json's generator field: what made the weights. */
  generator?: string;
  /** model_index.json's _wisp_guidance_scale: the guidance a request without one gets (the
   * underscore keeps diffusers from taking it for a component). */
  guidanceScale?: number;
  /** model_index.json's _wisp_guidance_interval: the noise levels guidance is applied at (see DiffusionPipeline). */
  guidanceInterval?: readonly [number, number];
  /** unet/config.json's sample_size: the latent side the UNet was trained on (diffusers' default
   * picture side is 8 times it), for a model that draws well at one size only. */
  sampleSize?: number;
}

/** A diffusers ONNX folder's files besides the models: index, tokenizer, scheduler and VAE configs. */
export function diffusionConfigFiles(tokenizer: ClipVocabulary, config: DiffusionConfig): [string, string | Uint8Array][] {
  return [
    ["model_index.json", json({ _class_name: "OnnxStableDiffusionPipeline", _diffusers_version: "0.30.0", generator: config.generator ?? "wisp", ...(config.guidanceScale === undefined ? {} : { _wisp_guidance_scale: config.guidanceScale }), ...(config.guidanceInterval === undefined ? {} : { _wisp_guidance_interval: config.guidanceInterval }) })],
    ["tokenizer/vocab.json", json(tokenizer.vocab)],
    ["tokenizer/merges.txt", ["#version: 0.2", ...tokenizer.merges, ""].join("\n")],
    ["tokenizer/tokenizer_config.json", json({ model_max_length: CLIP_CONTEXT_LENGTH, bos_token: START_TOKEN, eos_token: END_TOKEN, pad_token: END_TOKEN })],
    ["scheduler/scheduler_config.json", json(schedulerConfig(config.scheduler ?? "EulerDiscreteScheduler", config.predictionType ?? "epsilon"))],
    ["vae_decoder/config.json", json({ latent_channels: config.latentChannels, scaling_factor: config.scalingFactor })],
    ...(config.sampleSize === undefined ? [] : [["unet/config.json", json({ sample_size: config.sampleSize })] as [string, string]]),
  ];
}

/** Writes a model folder from a list of files, as placeModelFolder does. */
export function writeModelFolder(dir: string, files: [string, string | Uint8Array][]): Promise<void> {
  return placeModelFolder(dir, async (staging) => {
    for (const [path, contents] of files) {
      await mkdir(dirname(join(staging, path)), { recursive: true });
      await writeFile(join(staging, path), contents);
    }
  });
}

/**
 * Fills a folder beside the target and renames it into place, so a half-written model is never
 * seen.
 */
async function placeModelFolder(dir: string, fill: (staging: string) => Promise<void>): Promise<void> {
  const staging = `${dir}.partial-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  await fill(staging);
  await rm(dir, { recursive: true, force: true });
  try {
    await rename(staging, dir);
  } catch (error) {
    // Another process (a second server on the same models dir) finished first: keep its copy.
    await rm(staging, { recursive: true, force: true });
    if (!existsSync(join(dir, "model_index.json"))) throw error;
  }
}

/**
 * The trained default image model that ships in the repository and the extension: the
 * models/wisp-tiny-diffusion folder beside the package.json above this module (src/server/... in
 * a checkout, dist/server in the extension).
 */
export function shippedImageModelDir(from: string = dirname(fileURLToPath(import.meta.url))): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) {
      const shipped = join(dir, "models", DEFAULT_IMAGE_MODEL_ID);
      return existsSync(join(shipped, "model_index.json")) ? shipped : undefined;
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * Puts the default image model into modelsDir unless it is already there: a copy of the shipped
 * trained one, or where there is none (a server built without models/; `shipped` false), random
 * weights.
 */
export async function ensureDefaultImageModel(
  modelsDir: string,
  log?: (message: string) => void,
  shipped: string | false = shippedImageModelDir() ?? false,
): Promise<string> {
  const dir = join(modelsDir, DEFAULT_IMAGE_MODEL_ID);
  if (!existsSync(join(dir, "model_index.json"))) {
    await mkdir(modelsDir, { recursive: true });
    if (shipped) {
      await placeModelFolder(dir, (staging) => cp(shipped, staging, { recursive: true }));
      log?.(`copied the trained default image model into ${dir}`);
    } else {
      await writeDiffusionModel(dir, { externalData: true });
      log?.(`generated the default image model in ${dir}`);
    }
  }
  return dir;
}

function modelFiles(folder: string, graph: OnnxGraph, externalData: boolean): [string, Uint8Array][] {
  const location = "model.onnx_data";
  const serialized = graph.serialize(externalData ? { externalData: { location } } : {});
  const files: [string, Uint8Array][] = [[`${folder}/model.onnx`, serialized.model]];
  if (serialized.externalData) files.push([`${folder}/${location}`, serialized.externalData]);
  return files;
}

function schedulerConfig(className: string, predictionType: string): Record<string, unknown> {
  return {
    _class_name: className,
    num_train_timesteps: 1000,
    beta_start: 0.00085,
    beta_end: 0.012,
    beta_schedule: "scaled_linear",
    prediction_type: predictionType,
    timestep_spacing: "linspace",
    steps_offset: 1,
  };
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
