import { readFile } from "node:fs/promises";
import { join } from "node:path";
import * as ort from "onnxruntime-node";
import { ClipTokenizer } from "./clip-tokenizer";
import { GaussianRandom } from "./gaussian-random";
import { GenerationCancelledError } from "./image-errors";
import { EulerScheduler } from "./scheduler/euler-scheduler";
import { type SchedulerConfig, parseSchedulerConfig } from "./scheduler/scheduler-config";
import { RgbPostprocess } from "./rgb-postprocess";
import { TensorFeeds, toFloat32 } from "./tensor-feeds";

/** The name onSessionRun reports for the pixel conversion, which is not a model run. */
export const POSTPROCESS = "rgb_postprocess";

export interface GenerationParams {
  prompt: string;
  negativePrompt: string;
  width: number;
  height: number;
  steps: number;
  /** Seed of the first image; image i uses seed + i. */
  seed: number;
  guidanceScale: number;
  count: number;
}

export interface RgbImage {
  width: number;
  height: number;
  /** Interleaved RGB bytes, row by row. */
  pixels: Uint8Array;
  seed: number;
}

export interface GenerationHooks {
  /** Asked between steps: true stops the generation with a GenerationCancelledError. */
  isCancelled?(): boolean;
  onStep?(done: number, total: number): void;
  /** Reports the time each onnxruntime session.run took (benchmarks compare it to the total). */
  onSessionRun?(model: string, milliseconds: number): void;
}

interface Model {
  session: ort.InferenceSession;
  feeds: TensorFeeds;
  name: string;
}

/**
 * Stable-Diffusion-style text-to-image over a diffusers ONNX folder: CLIP tokenizer, text
 * encoder, UNet driven by an Euler scheduler with classifier-free guidance (the negative
 * prompt is the unconditional input), VAE decoder.
 */
export class DiffusionPipeline {
  /** Sigma tables by step count: they depend only on the config, so each is computed once. */
  private readonly schedulers = new Map<number, EulerScheduler>();

  private constructor(
    private readonly tokenizer: ClipTokenizer,
    private readonly textEncoder: Model,
    private readonly unet: Model,
    private readonly vaeDecoder: Model,
    private readonly scheduler: SchedulerConfig,
    private readonly vaeScalingFactor: number,
    private readonly postprocess: RgbPostprocess,
  ) {}

  /** 4 for Stable Diffusion 1.x/2.x; read from the UNet where the export fixes it. */
  private get latentChannels(): number {
    return TensorFeeds.fixedDim(this.unet.session, "sample", 1) ?? 4;
  }

  static async load(dir: string, options: { threads?: number } = {}): Promise<DiffusionPipeline> {
    const sessionOptions: ort.InferenceSession.SessionOptions = {
      intraOpNumThreads: options.threads ?? 1,
      interOpNumThreads: 1,
      graphOptimizationLevel: "all",
    };
    const load = async (name: string): Promise<Model> => {
      const session = await ort.InferenceSession.create(join(dir, name, "model.onnx"), sessionOptions);
      return { session, feeds: new TensorFeeds(session), name };
    };
    const vaeConfig = await readJson(join(dir, "vae_decoder", "config.json"), {});
    return new DiffusionPipeline(
      await ClipTokenizer.load(join(dir, "tokenizer")),
      await load("text_encoder"),
      await load("unet"),
      await load("vae_decoder"),
      parseSchedulerConfig(await readJson(join(dir, "scheduler", "scheduler_config.json"), {})),
      typeof vaeConfig.scaling_factor === "number" ? vaeConfig.scaling_factor : 0.18215,
      await RgbPostprocess.create(sessionOptions),
    );
  }

  async generate(params: GenerationParams, hooks: GenerationHooks = {}): Promise<RgbImage[]> {
    const guided = params.guidanceScale > 1;
    const prompts = guided ? [params.negativePrompt, params.prompt] : [params.prompt];
    const context = await this.encodeText(prompts, hooks);
    const images: RgbImage[] = [];
    for (let i = 0; i < params.count; i++) {
      const seed = (params.seed + i) >>> 0;
      const latent = await this.denoise(params, seed, context, hooks, i);
      images.push({ ...(await this.decode(latent, params.width, params.height, hooks)), seed });
    }
    return images;
  }

  async release(): Promise<void> {
    await Promise.all([this.textEncoder, this.unet, this.vaeDecoder].map((m) => m.session.release()));
    await this.postprocess.release();
  }

  /** Text embeddings [prompts.length, 77, D], concatenated. */
  private async encodeText(prompts: string[], hooks: GenerationHooks): Promise<{ data: Float32Array; dims: number[] }> {
    const ids = prompts.map((p) => this.tokenizer.encode(p));
    const groups = rowGroups(this.textEncoder, "input_ids", prompts.length);
    return this.runGroups(this.textEncoder, groups, hooks, (rows) => ({
      input_ids: this.textEncoder.feeds.tensor("input_ids", concat(rows.map((r) => ids[r])), [rows.length, ids[0].length]),
    }));
  }

  private async denoise(
    params: GenerationParams,
    seed: number,
    context: { data: Float32Array; dims: number[] },
    hooks: GenerationHooks,
    imageIndex: number,
  ): Promise<Float32Array> {
    const scheduler = this.schedulerFor(params.steps);
    const random = new GaussianRandom(seed);
    const latentDims = [this.latentChannels, params.height / 8, params.width / 8];
    const size = latentDims.reduce((a, b) => a * b);
    const latent = random.normals(size, scheduler.initNoiseSigma);
    const batch = context.dims[0];
    const groups = rowGroups(this.unet, "sample", batch);
    // The text side is the same at every step: build its tensors once.
    const rowSize = context.data.length / batch;
    const contexts = new Map(
      groups.map((rows) => [
        rows,
        this.unet.feeds.tensor("encoder_hidden_states", context.data.subarray(rows[0] * rowSize, (rows.at(-1)! + 1) * rowSize), [
          rows.length,
          ...context.dims.slice(1),
        ]),
      ]),
    );
    // One input buffer per group, reused at every step (onnxruntime is done with it after run).
    const inputs = new Map(groups.map((rows) => [rows, new Float32Array(rows.length * size)]));
    for (let step = 0; step < params.steps; step++) {
      if (hooks.isCancelled?.()) throw new GenerationCancelledError();
      const scale = scheduler.inputScale(step);
      const timestep = scheduler.timesteps[step];
      const output = await this.runGroups(this.unet, groups, hooks, (rows) => {
        const sample = scaledCopies(latent, scale, inputs.get(rows)!);
        return {
          sample: this.unet.feeds.tensor("sample", sample, [rows.length, ...latentDims]),
          timestep: this.unet.feeds.tensor("timestep", rows.map(() => timestep), [rows.length]),
          encoder_hidden_states: contexts.get(rows)!,
        };
      });
      scheduler.step(output.data, step, latent, random, batch === 2 ? params.guidanceScale : undefined);
      hooks.onStep?.(imageIndex * params.steps + step + 1, params.count * params.steps);
    }
    if (hooks.isCancelled?.()) throw new GenerationCancelledError();
    return latent;
  }

  private async decode(latent: Float32Array, width: number, height: number, hooks: GenerationHooks) {
    // In place: the latent is not used after decoding.
    const inverse = 1 / this.vaeScalingFactor;
    for (let i = 0; i < latent.length; i++) latent[i] *= inverse;
    const feeds = { latent_sample: this.vaeDecoder.feeds.tensor("latent_sample", latent, [1, this.latentChannels, height / 8, width / 8]) };
    const { data } = await this.run(this.vaeDecoder, feeds, hooks);
    const started = performance.now();
    const pixels = await this.postprocess.toRgb(new ort.Tensor("float32", data, [1, 3, height, width]));
    // Reported apart from the model runs: it is the pipeline's own work, done natively.
    hooks.onSessionRun?.(POSTPROCESS, performance.now() - started);
    return { width, height, pixels };
  }

  private schedulerFor(steps: number): EulerScheduler {
    let scheduler = this.schedulers.get(steps);
    if (!scheduler) this.schedulers.set(steps, (scheduler = new EulerScheduler(this.scheduler, steps)));
    return scheduler;
  }

  /** Runs each group of rows in one call and returns the first output, concatenated. */
  private async runGroups(
    model: Model,
    groups: number[][],
    hooks: GenerationHooks,
    feedsFor: (rows: number[]) => Record<string, ort.Tensor>,
  ): Promise<{ data: Float32Array; dims: number[] }> {
    if (groups.length === 1) return this.run(model, feedsFor(groups[0]), hooks);
    const parts = [];
    for (const rows of groups) parts.push(await this.run(model, feedsFor(rows), hooks));
    return { data: concat(parts.map((p) => p.data)), dims: [parts.length, ...parts[0].dims.slice(1)] };
  }

  private async run(model: Model, feeds: Record<string, ort.Tensor>, hooks: GenerationHooks) {
    const started = performance.now();
    const results = await model.session.run(feeds);
    hooks.onSessionRun?.(model.name, performance.now() - started);
    const output = results[model.session.outputNames[0]];
    return { data: toFloat32(output), dims: [...output.dims] };
  }
}

/** All rows in one call, or one call per row when the export fixes its batch size to 1. */
function rowGroups(model: Model, input: string, batch: number): number[][] {
  const rows = Array.from({ length: batch }, (_, i) => i);
  return TensorFeeds.fixedDim(model.session, input, 0) === 1 ? rows.map((r) => [r]) : [rows];
}

/** Fills `out` with copies of `latent * scale`, one after another, in one pass. */
function scaledCopies(latent: Float32Array, scale: number, out: Float32Array): Float32Array {
  const size = latent.length;
  if (out.length === 2 * size) {
    for (let i = 0; i < size; i++) out[i] = out[size + i] = latent[i] * scale;
  } else {
    for (let i = 0; i < size; i++) out[i] = latent[i] * scale;
    for (let offset = size; offset < out.length; offset += size) out.copyWithin(offset, 0, size);
  }
  return out;
}

function concat(parts: ArrayLike<number>[]): Float32Array {
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

async function readJson(path: string, fallback: Record<string, unknown>): Promise<Record<string, unknown>> {
  return readFile(path, "utf8").then((text) => JSON.parse(text) as Record<string, unknown>, () => fallback);
}
