import type { GenerationParams, RgbImage } from "./diffusion-pipeline";
import { type GenerateOptions, ImageModelWorker } from "./image-model-worker";
import { imageWorkerEntry } from "./worker-entry";

export interface ImageEngineOptions {
  /** onnxruntime intra-op threads per model. */
  threads: number;
  maxQueue: number;
  /** The worker entry; by default imageWorkerEntry(). */
  workerUrl?: URL;
}

/** One worker thread per image model, started on first use. */
export class ImageEngine {
  private readonly workers = new Map<string, ImageModelWorker>();

  constructor(private readonly options: ImageEngineOptions) {}

  generate(modelId: string, modelDir: string, params: GenerationParams, options?: GenerateOptions): Promise<RgbImage[]> {
    let worker = this.workers.get(modelId);
    if (!worker) {
      worker = new ImageModelWorker(modelId, modelDir, {
        threads: this.options.threads,
        maxQueue: this.options.maxQueue,
        workerUrl: this.options.workerUrl ?? imageWorkerEntry(),
      });
      this.workers.set(modelId, worker);
    }
    return worker.generate(params, options);
  }

  async dispose(): Promise<void> {
    const workers = [...this.workers.values()];
    this.workers.clear();
    await Promise.all(workers.map((w) => w.dispose()));
  }
}
