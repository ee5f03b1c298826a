// Shared steps of the image tests: ask through the openai SDK with Wisp's extra fields, decode.
import sharp from "sharp";
import type OpenAI from "openai";
import { DEFAULT_IMAGE_MODEL_ID } from "../../src/server/engines/image/default-model/default-image-model";

export const IMAGE_MODEL = DEFAULT_IMAGE_MODEL_ID;

/** The fields Wisp adds to OpenAI's images.generate body. */
export interface WispImageFields {
  negative_prompt?: string;
  width?: number;
  height?: number;
  num_inference_steps?: number;
  seed?: number;
  response_extension?: string;
  guidance_scale?: number;
}

export type ImageRequest = Partial<OpenAI.Images.ImageGenerateParamsNonStreaming> & WispImageFields;

/** Small and fast unless a test says otherwise. */
export function imageRequest(overrides: ImageRequest = {}): OpenAI.Images.ImageGenerateParamsNonStreaming {
  return {
    model: IMAGE_MODEL,
    prompt: "a lighthouse on a cliff at dawn",
    response_format: "b64_json",
    width: 64,
    height: 64,
    num_inference_steps: 3,
    seed: 7,
    ...overrides,
  } as OpenAI.Images.ImageGenerateParamsNonStreaming;
}

export async function generate(client: OpenAI, overrides: ImageRequest = {}, options: OpenAI.RequestOptions = {}) {
  const { data, response } = await client.images.generate(imageRequest(overrides), options).withResponse();
  return { body: data, seedHeader: response.headers.get("x-wisp-seed") };
}

export function imageBytes(body: OpenAI.Images.ImagesResponse, index = 0): Buffer {
  return Buffer.from(body.data![index]!.b64_json!, "base64");
}

export async function describeImage(bytes: Buffer) {
  const { format, width, height } = await sharp(bytes).metadata();
  return { format, width, height };
}
