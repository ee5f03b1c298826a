/** A side of 0 is the model's own (the request leaves it out and the server picks: diffusers
 * reads the UNet's sample_size, 512 for Stable Diffusion 1.x, 256 for the embedded model). */
export interface ImageSize {
  readonly width: number;
  readonly height: number;
}

/**
 * What Wisp asks for: multiples of 8 (the latent grid of Stable-Diffusion-style models) within the
 * range of the width/height settings. A server may accept less (the local one stops at 1024) and
 * says so in its answer.
 */
export const SIZE_LIMITS = { min: 64, max: 2048, multiple: 8 } as const;

/** True when the request leaves at least one side to the server (a side of 0). */
export function leavesSideToModel(size: ImageSize): boolean {
  return size.width === 0 || size.height === 0;
}

/** `512×768`: how sizes are shown. */
export function formatSize(size: ImageSize): string {
  if (size.width === 0 && size.height === 0) return "the model's own size";
  const side = (value: number) => (value === 0 ? "model's" : String(value));
  return `${side(size.width)}×${side(size.height)}`;
}

/** Why a width or height cannot be asked for, or undefined when it can. */
export function dimensionProblem(name: "width" | "height", value: number): string | undefined {
  const { min, max, multiple } = SIZE_LIMITS;
  if (!Number.isInteger(value)) return `The ${name} must be a whole number of pixels.`;
  if (value < min || value > max) return `The ${name} must be from ${min} to ${max} pixels, not ${value}.`;
  if (value % multiple !== 0) {
    const below = Math.max(min, value - (value % multiple));
    return `The ${name} must be a multiple of ${multiple}: ${value} is not (${below} or ${below + multiple} are).`;
  }
  return undefined;
}

/** Parses `512x768` (also `512 x 768`, `512×768`, `512*768`); a size or the reason it is not one. */
export function parseSize(text: string): { size: ImageSize } | { problem: string } {
  const match = /^\s*(\d{1,6})\s*[x×*X]\s*(\d{1,6})\s*$/.exec(text);
  if (!match) return { problem: `Enter the size as WIDTHxHEIGHT, e.g. 512x768.` };
  const size = { width: Number(match[1]), height: Number(match[2]) };
  const problem = dimensionProblem("width", size.width) ?? dimensionProblem("height", size.height);
  return problem === undefined ? { size } : { problem };
}

export interface SizeChoice {
  readonly size: ImageSize;
  /** Where the choice comes from, shown beside it. */
  readonly origin: "settings" | "preset";
}

/**
 * The sizes to offer: the width/height settings first (0: the model's own side), then the presets setting in its order,
 * without repeats. Presets that are not valid sizes are returned apart, so that they can be reported.
 */
export function sizeChoices(current: ImageSize, presets: readonly string[]): { choices: SizeChoice[]; invalid: string[] } {
  const choices: SizeChoice[] = [];
  const invalid: string[] = [];
  const seen = new Set<string>();
  const add = (size: ImageSize, origin: SizeChoice["origin"]) => {
    const key = formatSize(size);
    if (seen.has(key)) return;
    seen.add(key);
    choices.push({ size, origin });
  };
  const askable = (value: number, name: "width" | "height") => value === 0 || dimensionProblem(name, value) === undefined;
  if (askable(current.width, "width") && askable(current.height, "height")) add(current, "settings");
  for (const preset of presets) {
    const parsed = parseSize(preset);
    if ("size" in parsed) add(parsed.size, "preset");
    else invalid.push(preset);
  }
  return { choices, invalid };
}
