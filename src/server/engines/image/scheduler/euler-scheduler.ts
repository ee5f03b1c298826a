import type { GaussianRandom } from "../gaussian-random";
import { type GuidedStepKernel, guidedPairStepJs } from "./guided-step-kernel";
import { type SchedulerConfig, sigmaSchedule } from "./scheduler-config";

/**
 * Euler sampling over Karras-style sigmas (diffusers' EulerDiscreteScheduler and, with
 * `ancestral`, EulerAncestralDiscreteScheduler, which re-injects fresh noise at every step).
 */
export class EulerScheduler {
  readonly timesteps: readonly number[];
  readonly initNoiseSigma: number;
  private readonly sigmas: readonly number[];
  private readonly ancestral: boolean;

  constructor(
    private readonly config: SchedulerConfig,
    steps: number,
  ) {
    const schedule = sigmaSchedule(config, steps);
    this.timesteps = schedule.timesteps;
    this.sigmas = schedule.sigmas;
    this.initNoiseSigma = schedule.initNoiseSigma;
    this.ancestral = config.className === "EulerAncestralDiscreteScheduler";
  }

  /** The noise level of the latent going into the UNet at this step. */
  sigma(step: number): number {
    return this.sigmas[step]!;
  }

  /** The factor the latent is multiplied by before it goes into the UNet at this step. */
  inputScale(step: number): number {
    return 1 / Math.sqrt(this.sigmas[step] ** 2 + 1);
  }

  /**
   * Advances the latent `sample` in place by one step, given the model's output for it, in
   * float32 arithmetic as the model's own framework would do it. With a `guidanceScale`,
   * `modelOutput` is an [uncond, cond] pair, combined as it is read (uncond + scale * (cond -
   * uncond)). With `next`, the new sample times `next.scale` is also written into `next.buffer`
   * as many times as it holds the sample (the next model input): one pass per step, not three.
   * A `kernel` takes the usual case (guided, no fresh noise, two copies next) when it holds the arrays.
   */
  step(modelOutput: Float32Array, step: number, sample: Float32Array, random: GaussianRandom, options: StepOptions = {}): void {
    const { guidanceScale, next, kernel } = options;
    const sigma = this.sigmas[step];
    const sigmaNext = this.sigmas[step + 1];
    let sigmaUp = 0;
    let target = sigmaNext;
    if (this.ancestral) {
      sigmaUp = Math.sqrt((sigmaNext ** 2 * (sigma ** 2 - sigmaNext ** 2)) / sigma ** 2);
      target = Math.sqrt(sigmaNext ** 2 - sigmaUp ** 2);
    }
    const dt = target - sigma;
    // x + (x - denoised) / sigma * dt, with denoised written out per prediction type.
    let fromOutput = dt;
    let fromSample = 0;
    if (this.config.predictionType === "v_prediction") {
      const vScale = 1 / (sigma ** 2 + 1);
      fromOutput = Math.sqrt(vScale) * dt;
      fromSample = ((1 - vScale) / sigma) * dt;
    }
    if (guidanceScale !== undefined && sigmaUp === 0 && next && next.buffer.length === 2 * sample.length) {
      const coefficients = { guidance: guidanceScale, fromOutput, fromSample, scale: next.scale };
      if (!kernel?.guidedPairStep(modelOutput, sample, next.buffer, coefficients)) guidedPairStepJs(modelOutput, sample, next.buffer, coefficients);
      return;
    }
    anyStep({ output: modelOutput, sample, fromOutput, fromSample, guidance: guidanceScale, next }, sigmaUp > 0 ? () => random.normal() * sigmaUp : undefined);
  }
}

export interface StepOptions {
  guidanceScale?: number;
  next?: ScaledTarget;
  kernel?: GuidedStepKernel;
}

/** Where a step also writes its result for the next model: copies of sample * scale, back to back. */
export interface ScaledTarget {
  buffer: Float32Array;
  scale: number;
}

interface Update {
  output: Float32Array;
  sample: Float32Array;
  fromOutput: number;
  fromSample: number;
  guidance: number | undefined;
  next: ScaledTarget | undefined;
}

/** Every other case, float32 operation for operation like guidedPairStepJs. */
function anyStep({ output, sample, fromOutput, fromSample, guidance, next }: Update, noise: (() => number) | undefined): void {
  const f = Math.fround;
  const n = sample.length;
  const copies = next ? next.buffer.length / n : 0;
  const [g, fo, fs, scale] = [f(guidance ?? 0), f(fromOutput), f(fromSample), f(next?.scale ?? 0)];
  for (let i = 0; i < n; i++) {
    const x = sample[i];
    const predicted = guidance === undefined ? output[i] : f(output[i] + f(g * f(output[n + i] - output[i])));
    let value = f(x + f(f(predicted * fo) + f(x * fs)));
    if (noise) value = f(value + f(noise()));
    sample[i] = value;
    for (let c = 0; c < copies; c++) next!.buffer[c * n + i] = f(value * scale);
  }
}
