import type { GaussianRandom } from "../gaussian-random";
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

  /** The factor the latent is multiplied by before it goes into the UNet at this step. */
  inputScale(step: number): number {
    return 1 / Math.sqrt(this.sigmas[step] ** 2 + 1);
  }

  /**
   * Advances the latent `sample` in place by one step, given the model's output for it. With a
   * `guidanceScale`, `modelOutput` is an [uncond, cond] pair, combined as it is read (uncond +
   * scale * (cond - uncond), rounded to float32 like a stored value): one pass instead of two.
   */
  step(modelOutput: Float32Array, step: number, sample: Float32Array, random: GaussianRandom, guidanceScale?: number): void {
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
    const n = sample.length;
    if (this.config.predictionType === "epsilon") {
      for (let i = 0; i < n; i++) sample[i] += prediction(modelOutput, i, n, guidanceScale) * dt;
    } else {
      const vScale = 1 / (sigma ** 2 + 1);
      const fromOutput = Math.sqrt(vScale) * dt;
      const fromSample = ((1 - vScale) / sigma) * dt;
      for (let i = 0; i < n; i++) sample[i] += prediction(modelOutput, i, n, guidanceScale) * fromOutput + sample[i] * fromSample;
    }
    if (sigmaUp > 0) for (let i = 0; i < n; i++) sample[i] += random.normal() * sigmaUp;
  }
}

/** Element i of the model's output: as is, or guided from an [uncond, cond] pair of length 2n. */
function prediction(output: Float32Array, i: number, n: number, guidanceScale: number | undefined): number {
  return guidanceScale === undefined ? output[i] : Math.fround(output[i] + guidanceScale * (output[n + i] - output[i]));
}
