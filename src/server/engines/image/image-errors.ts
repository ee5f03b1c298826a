/** Errors of the image engine, kept free of onnxruntime so the main thread can import them. */

export class GenerationCancelledError extends Error {
  constructor() {
    super("image generation cancelled");
    this.name = "GenerationCancelledError";
  }
}

export class ImageQueueFullError extends Error {
  constructor(modelId: string, limit: number) {
    super(`model ${modelId} already has ${limit} image generations waiting; try again later`);
    this.name = "ImageQueueFullError";
  }
}
