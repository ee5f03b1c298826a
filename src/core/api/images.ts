export type ImageExtension = "png" | "jpg" | "webp";

/** Body of `POST /v1/images/generations`, with the Stable-Diffusion-style extras Wisp's server honours. */
export interface ImageRequest {
  model: string;
  prompt: string;
  negative_prompt?: string;
  width?: number;
  height?: number;
  num_inference_steps?: number;
  /** -1 asks the server for a random seed. */
  seed?: number;
  /** Wisp always asks for inline images. */
  response_format?: "b64_json";
  response_extension?: ImageExtension;
  n?: number;
}

export interface ImageData {
  b64_json?: string;
  url?: string;
  revised_prompt?: string;
}

export interface ImageResponse {
  id?: string;
  created: number;
  data: ImageData[];
  /** Not in OpenAI's schema: the seed actually used, when the server reports it. */
  seed?: number;
}
