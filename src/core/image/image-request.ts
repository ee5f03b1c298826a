import type { ImageExtension, ImageRequest } from "../api/images";
import type { ImageSize } from "./image-size";

/** Everything one `Wisp: Generate Image` run asks for. */
export interface ImageOptions {
  readonly model: string;
  readonly prompt: string;
  readonly negativePrompt: string;
  readonly size: ImageSize;
  readonly steps: number;
  /** -1 lets the server pick a random seed (it reports the one it used). */
  readonly seed: number;
  readonly format: ImageExtension;
  /** How many images (variations use seed, seed + 1, …). */
  readonly count: number;
}

/** The largest seed the API takes (unsigned 32 bits). */
export const maxSeed = 4_294_967_295;

/** Why a seed cannot be sent, or undefined when it can (-1 is "random"). */
export function seedProblem(seed: number): string | undefined {
  if (!Number.isInteger(seed) || seed < -1 || seed > maxSeed) return `The seed must be -1 (random) or a whole number from 0 to ${maxSeed}.`;
  return undefined;
}

/** Why a step count cannot be sent, or undefined when it can. */
export function stepsProblem(steps: number): string | undefined {
  if (!Number.isInteger(steps) || steps < 1 || steps > 100) return "The steps must be a whole number from 1 to 100.";
  return undefined;
}

/** The body of `POST /v1/images/generations`: every field of the seed API, inline base64 images. */
export function buildImageRequest(options: ImageOptions): ImageRequest {
  return {
    model: options.model,
    prompt: options.prompt,
    negative_prompt: options.negativePrompt,
    // A side of 0 is left to the server: the model's own.
    ...(options.size.width === 0 ? {} : { width: options.size.width }),
    ...(options.size.height === 0 ? {} : { height: options.size.height }),
    num_inference_steps: options.steps,
    seed: options.seed,
    response_format: "b64_json",
    response_extension: options.format,
    n: options.count,
  };
}

/** The media type of an image file, for data: URIs. */
export function imageMediaType(format: ImageExtension): string {
  return format === "jpg" ? "image/jpeg" : `image/${format}`;
}
