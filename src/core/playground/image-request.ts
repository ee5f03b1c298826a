/** The playground's image setup turned into the exact `/v1/images/generations` body. */
import { readNumber, type FieldError } from "./form-values";

export interface ImageSetup {
  model: string;
  prompt: string;
  negativePrompt: string;
  /** "WIDTHxHEIGHT". */
  size: string;
  steps: string;
  /** Empty: a random seed (the server says which in data[0].seed). */
  seed: string;
}

export type ImageRequestResult = { ok: true; body: Record<string, unknown> } | { ok: false; errors: FieldError[] };

/** Square sizes the playground offers (multiples of 8 within the server's 64-1024). */
export const imageSizes: readonly string[] = ["64x64", "128x128", "256x256", "512x512", "768x768", "1024x1024"];

export function buildImageRequest(setup: ImageSetup): ImageRequestResult {
  const errors: FieldError[] = [];
  if (setup.model === "") errors.push({ field: "model", message: "choose an image model" });
  if (setup.prompt.trim() === "") errors.push({ field: "prompt", message: "describe the image" });
  const size = /^(\d+)x(\d+)$/.exec(setup.size);
  if (!size) errors.push({ field: "size", message: "size must be WIDTHxHEIGHT" });
  const steps = readNumber("steps", setup.steps, { min: 1, max: 100, integer: true }, errors);
  const seed = readNumber("seed", setup.seed, { min: -1, max: 4294967295, integer: true }, errors);
  if (errors.length > 0 || !size) return { ok: false, errors };

  const body: Record<string, unknown> = { model: setup.model, prompt: setup.prompt };
  if (setup.negativePrompt.trim() !== "") body.negative_prompt = setup.negativePrompt;
  body.width = Number(size[1]);
  body.height = Number(size[2]);
  if (steps !== undefined) body.num_inference_steps = steps;
  if (seed !== undefined) body.seed = seed;
  body.response_format = "b64_json";
  return { ok: true, body };
}
