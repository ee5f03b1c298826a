/** The fields of a diffusers scheduler_config.json that the Euler schedulers use. */
export interface SchedulerConfig {
  className: string;
  numTrainTimesteps: number;
  betaStart: number;
  betaEnd: number;
  betaSchedule: "scaled_linear" | "linear";
  predictionType: "epsilon" | "v_prediction";
  timestepSpacing: "linspace" | "leading" | "trailing";
  stepsOffset: number;
}

export const SUPPORTED_SCHEDULERS = ["EulerDiscreteScheduler", "EulerAncestralDiscreteScheduler"];

/** Reads a parsed scheduler_config.json, with diffusers' defaults for missing fields. */
export function parseSchedulerConfig(raw: Record<string, unknown>): SchedulerConfig {
  const pick = <T extends string>(value: unknown, allowed: readonly T[], fallback: T, key: string): T => {
    if (value === undefined) return fallback;
    if (!allowed.includes(value as T)) throw new Error(`scheduler_config.json: unsupported ${key} ${JSON.stringify(value)}`);
    return value as T;
  };
  const num = (value: unknown, fallback: number) => (typeof value === "number" ? value : fallback);
  const className = typeof raw._class_name === "string" ? raw._class_name : "EulerDiscreteScheduler";
  return {
    // Other diffusers schedulers share this config format; sampling them with Euler is a fair stand-in.
    className: SUPPORTED_SCHEDULERS.includes(className) ? className : "EulerDiscreteScheduler",
    numTrainTimesteps: num(raw.num_train_timesteps, 1000),
    betaStart: num(raw.beta_start, 0.00085),
    betaEnd: num(raw.beta_end, 0.012),
    betaSchedule: pick(raw.beta_schedule, ["scaled_linear", "linear"], "scaled_linear", "beta_schedule"),
    predictionType: pick(raw.prediction_type, ["epsilon", "v_prediction"], "epsilon", "prediction_type"),
    timestepSpacing: pick(raw.timestep_spacing, ["linspace", "leading", "trailing"], "linspace", "timestep_spacing"),
    stepsOffset: num(raw.steps_offset, 0),
  };
}

export interface SigmaSchedule {
  /** Model timesteps, highest noise first (fractional with linspace spacing). */
  timesteps: number[];
  /** Noise levels per step, plus a final 0. */
  sigmas: number[];
  initNoiseSigma: number;
}

/** diffusers' EulerDiscreteScheduler.set_timesteps, for interpolation "linear". */
export function sigmaSchedule(config: SchedulerConfig, steps: number): SigmaSchedule {
  const n = config.numTrainTimesteps;
  const trainSigmas: number[] = [];
  let alphaCumprod = 1;
  for (let i = 0; i < n; i++) {
    const beta =
      config.betaSchedule === "scaled_linear"
        ? (Math.sqrt(config.betaStart) + ((Math.sqrt(config.betaEnd) - Math.sqrt(config.betaStart)) * i) / (n - 1)) ** 2
        : config.betaStart + ((config.betaEnd - config.betaStart) * i) / (n - 1);
    alphaCumprod *= 1 - beta;
    trainSigmas.push(Math.sqrt((1 - alphaCumprod) / alphaCumprod));
  }

  const timesteps = spacedTimesteps(config, steps);
  const sigmas = timesteps.map((t) => {
    const low = Math.floor(t);
    const high = Math.min(low + 1, n - 1);
    return trainSigmas[low] + (trainSigmas[high] - trainSigmas[low]) * (t - low);
  });
  const maxSigma = Math.max(...sigmas);
  const initNoiseSigma = config.timestepSpacing === "leading" ? Math.sqrt(maxSigma ** 2 + 1) : maxSigma;
  return { timesteps, sigmas: [...sigmas, 0], initNoiseSigma };
}

function spacedTimesteps(config: SchedulerConfig, steps: number): number[] {
  const n = config.numTrainTimesteps;
  const range = Array.from({ length: steps }, (_, i) => i);
  switch (config.timestepSpacing) {
    case "linspace":
      return range.map((i) => (steps === 1 ? 0 : ((n - 1) * i) / (steps - 1))).reverse();
    case "leading": {
      const ratio = Math.floor(n / steps);
      return range.map((i) => Math.min(Math.round(i * ratio) + config.stepsOffset, n - 1)).reverse();
    }
    case "trailing": {
      const ratio = n / steps;
      return range.map((i) => Math.round(n - i * ratio) - 1);
    }
  }
}
