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

/** Generations running and waiting, over all image models (GET /metrics). */
export interface ImageEngineMetrics {
  running: number;
  waiting: number;
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

  metrics(): ImageEngineMetrics {
    const workers = [...this.workers.values()];
    return { running: workers.filter((w) => w.busy).length, waiting: workers.reduce((sum, w) => sum + w.waiting, 0) };
  }

  async dispose(): Promise<void> {
    const workers = [...this.workers.values()];
    this.workers.clear();
    await Promise.all(workers.map((w) => w.dispose()));
  }
}
