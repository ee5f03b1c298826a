import { readFile } from "node:fs/promises";
import { join } from "node:path";
import * as ort from "onnxruntime-node";
import { EngineInputError } from "../../engine-input-error";
import { ClipTokenizer } from "./clip-tokenizer";
import { GaussianRandom } from "./gaussian-random";
import { GenerationCancelledError } from "./image-errors";
import { guidedSteps } from "./guided-steps";
import { IMAGE_LIMITS } from "./image-limits";
import { EulerScheduler } from "./scheduler/euler-scheduler";
import { GuidedStepKernel } from "./scheduler/guided-step-kernel";
import { type SchedulerConfig, parseSchedulerConfig } from "./scheduler/scheduler-config";
import { RgbPostprocess } from "./rgb-postprocess";
import { TensorFeeds, toFloat32 } from "./tensor-feeds";

/** The name onSessionRun reports for the pixel conversion, which is not a model run. */
export const POSTPROCESS = "rgb_postprocess";

export interface GenerationParams {
  prompt: string;
  negativePrompt: string;
  /** Absent: the model's own size (see DiffusionPipeline.defaultSize; a static-shape UNet's). */
  width?: number;
  height?: number;
  steps: number;
  /** Seed of the first image; image i uses seed + i. */
  seed: number;
  /** Absent: the model's own default (see DiffusionPipeline.defaultGuidanceScale). */
  guidanceScale?: number;
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

type Feeds = Record<string, ort.Tensor>;

interface Output {
  data: Float32Array;
  dims: number[];
}

interface Model {
  session: ort.InferenceSession;
  feeds: TensorFeeds;
  name: string;
}

/** A `_wisp_guidance_interval` as the pipeline takes it: two noise levels [low, high], 0 <= low < high; undefined for anything else. */
export function guidanceInterval(value: unknown): readonly [number, number] | undefined {
  if (!Array.isArray(value) || value.length !== 2 || !value.every((v) => typeof v === "number" && v >= 0)) return undefined;
  const [low, high] = value as [number, number];
  return low < high ? [low, high] : undefined;
}

/**
 * Stable-Diffusion-style text-to-image over a diffusers ONNX folder: CLIP tokenizer, text
 * encoder, UNet driven by an Euler scheduler with classifier-free guidance (the negative
 * prompt is the unconditional input), VAE decoder.
 */
export class DiffusionPipeline {
  /** Sigma tables by step count: they depend only on the config, so each is computed once. */
  private readonly schedulers = new Map<number, EulerScheduler>();
  /** By step count, which steps are guided (see guidedSteps); like the sigmas, computed once. */
  private readonly guided = new Map<number, boolean[]>();
  private readonly timesteps = new Map<string, ort.Tensor[]>();
  private readonly kernelModule = GuidedStepKernel.compile();
  private readonly idleKernels: GuidedStepKernel[] = [];

  private constructor(
    private readonly tokenizer: ClipTokenizer,
    private readonly textEncoder: Model,
    private readonly unet: Model,
    private readonly vaeDecoder: Model,
    private readonly scheduler: SchedulerConfig,
    private readonly vaeScalingFactor: number,
    private readonly postprocess: RgbPostprocess,
    /** model_index.json's _wisp_guidance_scale where the folder sets one (a model trained for
     * another scale than Stable Diffusion's usual one), else IMAGE_LIMITS' default. */
    readonly defaultGuidanceScale: number,
    /** The picture side a request without a size gets: unet/config.json's sample_size times the
     * VAE's 8 where the folder has one (as diffusers does), else IMAGE_LIMITS' default. */
    readonly defaultSize: number,
    /** model_index.json's _wisp_guidance_interval [low, high] where the folder sets one: guidance
     * only at the steps whose noise level sigma is above low and at most high, the model's own
     * prediction elsewhere (guidance in a limited interval), and at least the step nearest to it
     * where it holds none; at every step where it sets none. */
    readonly guidanceInterval?: readonly [number, number],
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
    const index = await readJson(join(dir, "model_index.json"), {});
    const guidance = index._wisp_guidance_scale;
    const interval = index._wisp_guidance_interval;
    const sampleSize = (await readJson(join(dir, "unet", "config.json"), {})).sample_size;
    const nativeSize = typeof sampleSize === "number" ? sampleSize * 8 : Number.NaN;
    return new DiffusionPipeline(
      await ClipTokenizer.load(join(dir, "tokenizer")),
      await load("text_encoder"),
      await load("unet"),
      await load("vae_decoder"),
      parseSchedulerConfig(await readJson(join(dir, "scheduler", "scheduler_config.json"), {})),
      typeof vaeConfig.scaling_factor === "number" ? vaeConfig.scaling_factor : 0.18215,
      new RgbPostprocess(RgbPostprocess.compile()),
      typeof guidance === "number" && guidance >= 0 && guidance <= IMAGE_LIMITS.maxGuidanceScale ? guidance : IMAGE_LIMITS.defaultGuidanceScale,
      Number.isInteger(nativeSize) && nativeSize >= IMAGE_LIMITS.minSize && nativeSize <= IMAGE_LIMITS.maxSize ? nativeSize : IMAGE_LIMITS.defaultSize,
      guidanceInterval(interval),
    );
  }

  /** The one size a static-shape export makes (its UNet fixes the latent's height and width). */
  private get fixedSize(): { width: number; height: number } | undefined {
    const height = TensorFeeds.fixedDim(this.unet.session, "sample", 2);
    const width = TensorFeeds.fixedDim(this.unet.session, "sample", 3);
    return height === undefined || width === undefined ? undefined : { width: width * 8, height: height * 8 };
  }

  async generate(request: GenerationParams, hooks: GenerationHooks = {}): Promise<RgbImage[]> {
    const fixed = this.fixedSize;
    const params = {
      ...request,
      width: request.width ?? fixed?.width ?? this.defaultSize,
      height: request.height ?? fixed?.height ?? this.defaultSize,
      guidanceScale: request.guidanceScale ?? this.defaultGuidanceScale,
    };
    if (fixed && (params.width !== fixed.width || params.height !== fixed.height)) {
      const size = `${fixed.width}x${fixed.height}`;
      throw new EngineInputError(`this model makes ${size} images only (its UNet was exported for that size): ask for ${size}, or leave the size out`, "size", "unsupported_value");
    }
    const guided = params.guidanceScale > 1;
    const prompts = guided ? [params.negativePrompt, params.prompt] : [params.prompt];
    const context = await this.encodeText(prompts, hooks);
    // A kernel's memory holds one generation's latent at a time: concurrent calls take their own.
    const kernel = this.idleKernels.pop() ?? new GuidedStepKernel(this.kernelModule);
    try {
      const images: RgbImage[] = [];
      for (let i = 0; i < params.count; i++) {
        const seed = (params.seed + i) >>> 0;
        const latent = await this.denoise(params, seed, context, kernel, hooks, i);
        images.push({ ...(await this.decode(latent, params.width, params.height, hooks)), seed });
      }
      return images;
    } finally {
      this.idleKernels.push(kernel);
    }
  }

  async release(): Promise<void> {
    await Promise.all([this.textEncoder, this.unet, this.vaeDecoder].map((m) => m.session.release()));
  }

  /** Text embeddings [prompts.length, 77, D], concatenated. */
  private async encodeText(prompts: string[], hooks: GenerationHooks): Promise<Output> {
    const ids = prompts.map((p) => this.tokenizer.encode(p));
    const groups = rowGroups(this.textEncoder, "input_ids", prompts.length);
    return this.runGroups(this.textEncoder, groups, hooks, (rows) => ({
      input_ids: this.textEncoder.feeds.tensor("input_ids", concat(rows.map((r) => ids[r]), Int32Array), [rows.length, ids[0].length]),
    }));
  }

  private async denoise(
    params: Required<GenerationParams>,
    seed: number,
    context: Output,
    kernel: GuidedStepKernel,
    hooks: GenerationHooks,
    imageIndex: number,
  ): Promise<Float32Array> {
    const scheduler = this.schedulerFor(params.steps);
    const random = new GaussianRandom(seed);
    const latentDims = [this.latentChannels, params.height / 8, params.width / 8];
    const size = latentDims.reduce((a, b) => a * b);
    const batch = context.dims[0];
    // The latent, one input buffer for all rows (reused at every step: onnxruntime is done with
    // it after run) and the VAE's input, in the kernel's memory. Each step writes the next
    // step's input as it updates the latent; the last one writes the latent over the VAE's
    // scaling factor instead.
    const [latent, input, decoderInput] = kernel.allocate([size, batch * size, size], batch === 2 ? 2 * size : 0);
    random.fill(latent, scheduler.initNoiseSigma);
    scaledCopies(latent, scheduler.inputScale(0), input);
    // Per call (all rows, or one per row), everything but the sample is the same at every step.
    const rowSize = context.data.length / batch;
    const callFor = (rows: number[]) => ({
      sample: this.unet.feeds.live("sample", rowsOf(input, size, rows), [rows.length, ...latentDims]),
      context: this.unet.feeds.tensor("encoder_hidden_states", rowsOf(context.data, rowSize, rows), [rows.length, ...context.dims.slice(1)]),
      timesteps: this.timestepTensors(params.steps, rows.length),
    });
    const calls = rowGroups(this.unet, "sample", batch).map(callFor);
    // Steps outside the guidance interval need only the prompt's row: the unconditional one is
    // not run there (half the UNet's batch at those steps).
    const promptOnly = batch === 2 && this.guidanceInterval ? [callFor([1])] : calls;
    const guided = this.guidedSteps(params.steps);
    for (let step = 0; step < params.steps; step++) {
      if (hooks.isCancelled?.()) throw new GenerationCancelledError();
      const guidanceScale = batch === 2 && guided[step] ? params.guidanceScale : undefined;
      const output = await this.runGroups(this.unet, guidanceScale === undefined ? promptOnly : calls, hooks, (call) => ({
        sample: call.sample(),
        timestep: call.timesteps[step],
        encoder_hidden_states: call.context,
      }));
      const last = step === params.steps - 1;
      const next = last ? { buffer: decoderInput, scale: 1 / this.vaeScalingFactor } : { buffer: input, scale: scheduler.inputScale(step + 1) };
      scheduler.step(output.data, step, latent, random, { guidanceScale, next, kernel });
      hooks.onStep?.(imageIndex * params.steps + step + 1, params.count * params.steps);
    }
    if (hooks.isCancelled?.()) throw new GenerationCancelledError();
    return decoderInput;
  }

  /** Whether each step of a run of `steps` is guided; elsewhere the prompt's prediction alone is used. */
  private guidedSteps(steps: number): boolean[] {
    let guided = this.guided.get(steps);
    if (!guided) {
      const scheduler = this.schedulerFor(steps);
      this.guided.set(steps, (guided = guidedSteps(Array.from({ length: steps }, (_, step) => scheduler.sigma(step)), this.guidanceInterval)));
    }
    return guided;
  }

  /** Decodes a latent already divided by the VAE's scaling factor (the last step does that). */
  private async decode(latent: Float32Array, width: number, height: number, hooks: GenerationHooks) {
    const feeds = { latent_sample: this.vaeDecoder.feeds.tensor("latent_sample", latent, [1, this.latentChannels, height / 8, width / 8]) };
    const { data } = await this.run(this.vaeDecoder, feeds, hooks);
    const started = performance.now();
    const pixels = this.postprocess.toRgb(data, width * height);
    // Reported apart from the model runs: it is the pipeline's own work.
    hooks.onSessionRun?.(POSTPROCESS, performance.now() - started);
    return { width, height, pixels };
  }

  private schedulerFor(steps: number): EulerScheduler {
    let scheduler = this.schedulers.get(steps);
    if (!scheduler) this.schedulers.set(steps, (scheduler = new EulerScheduler(this.scheduler, steps)));
    return scheduler;
  }

  /** The UNet's timestep input at each step, for a batch of `rows`; like the sigmas, built once. */
  private timestepTensors(steps: number, rows: number): ort.Tensor[] {
    const key = `${steps}x${rows}`;
    let tensors = this.timesteps.get(key);
    if (!tensors) {
      tensors = this.schedulerFor(steps).timesteps.map((t) => this.unet.feeds.tensor("timestep", new Array<number>(rows).fill(t), [rows]));
      this.timesteps.set(key, tensors);
    }
    return tensors;
  }

  /** Runs each group of rows in one call and returns the first output, concatenated. */
  private runGroups<Group>(model: Model, groups: Group[], hooks: GenerationHooks, feedsFor: (group: Group) => Feeds): Promise<Output> {
    return groups.length === 1 ? this.run(model, feedsFor(groups[0]), hooks) : this.runEach(model, groups, hooks, feedsFor);
  }

  private async runEach<Group>(model: Model, groups: Group[], hooks: GenerationHooks, feedsFor: (group: Group) => Feeds): Promise<Output> {
    const parts = [];
    for (const group of groups) parts.push(await this.run(model, feedsFor(group), hooks));
    return { data: concat(parts.map((p) => p.data), Float32Array), dims: [parts.length, ...parts[0].dims.slice(1)] };
  }

  private async run(model: Model, feeds: Feeds, hooks: GenerationHooks): Promise<Output> {
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

/** Consecutive rows of a batch, as a view. */
function rowsOf(data: Float32Array, rowSize: number, rows: number[]): Float32Array {
  return data.subarray(rows[0] * rowSize, (rows.at(-1)! + 1) * rowSize);
}

/** Fills `out` with copies of `latent * scale` (a float32 product), one after another, in one pass. */
function scaledCopies(latent: Float32Array, scale: number, out: Float32Array): Float32Array {
  const size = latent.length;
  const factor = Math.fround(scale);
  if (out.length === 2 * size) {
    for (let i = 0; i < size; i++) out[i] = out[size + i] = latent[i] * factor;
  } else {
    for (let i = 0; i < size; i++) out[i] = latent[i] * factor;
    for (let offset = size; offset < out.length; offset += size) out.copyWithin(offset, 0, size);
  }
  return out;
}

function concat<T extends Float32Array | Int32Array>(parts: T[], type: new (length: number) => T): T {
  const out = new type(parts.reduce((n, p) => n + p.length, 0));
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
