import { Worker } from "node:worker_threads";
import type { GenerationParams, RgbImage } from "./diffusion-pipeline";
import { EngineInputError } from "../../engine-input-error";
import { ImageModelLoadError } from "../../model-load-error";
import { GenerationCancelledError, ImageQueueFullError } from "./image-errors";
import type { FailedReply, GenerateMessage, ImageWorkerData, WorkerReply } from "./worker-protocol";

export interface ImageWorkerOptions {
  threads: number;
  /** Generations that may wait behind the running one before new ones are refused. */
  maxQueue: number;
  workerUrl: URL;
}

export interface GenerateOptions {
  /** Aborting removes a waiting generation, or stops a running one between steps. */
  signal?: AbortSignal;
  onProgress?(done: number, total: number): void;
}

interface Job {
  id: number;
  params: GenerationParams;
  options: GenerateOptions;
  cancel: Int32Array;
  resolve(images: RgbImage[]): void;
  reject(error: Error): void;
  onAbort(): void;
}

/** The worker thread of one image model: runs one generation at a time, the others queue. */
export class ImageModelWorker {
  private worker: Worker | undefined;
  private readonly queue: Job[] = [];
  private running: Job | undefined;
  private nextId = 1;

  constructor(
    readonly modelId: string,
    private readonly modelDir: string,
    private readonly options: ImageWorkerOptions,
  ) {}

  generate(params: GenerationParams, options: GenerateOptions = {}): Promise<RgbImage[]> {
    if (options.signal?.aborted) return Promise.reject(new GenerationCancelledError());
    if (this.running && this.queue.length >= this.options.maxQueue) return Promise.reject(new ImageQueueFullError(this.modelId, this.options.maxQueue));
    return new Promise((resolve, reject) => {
      const cancel = new Int32Array(new SharedArrayBuffer(4));
      const job: Job = {
        id: this.nextId++,
        params,
        options,
        cancel,
        resolve,
        reject,
        onAbort: () => {
          const waiting = this.queue.indexOf(job);
          if (waiting >= 0) {
            this.queue.splice(waiting, 1);
            this.settle(job, () => reject(new GenerationCancelledError()));
          } else Atomics.store(cancel, 0, 1);
        },
      };
      options.signal?.addEventListener("abort", job.onAbort, { once: true });
      this.queue.push(job);
      this.startNext();
    });
  }

  /** Generations waiting behind the running one. */
  get waiting(): number {
    return this.queue.length;
  }

  /** A generation is running (until its worker answers, also one being cancelled). */
  get busy(): boolean {
    return this.running !== undefined;
  }

  async dispose(): Promise<void> {
    for (const job of this.queue.splice(0)) this.settle(job, () => job.reject(new GenerationCancelledError()));
    const worker = this.worker;
    this.worker = undefined;
    if (this.running) this.fail(new GenerationCancelledError());
    await worker?.terminate();
  }

  private startNext(): void {
    if (this.running || this.queue.length === 0) return;
    const job = this.queue.shift()!;
    this.running = job;
    const worker = this.ensureWorker();
    worker.ref();
    const message: GenerateMessage = { type: "generate", id: job.id, params: job.params, cancel: job.cancel.buffer as SharedArrayBuffer };
    worker.postMessage(message);
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const workerData: ImageWorkerData = { modelDir: this.modelDir, threads: this.options.threads };
    const worker = new Worker(this.options.workerUrl, { workerData });
    worker.on("message", (reply: WorkerReply) => this.onReply(reply));
    // A crashed worker fails its generation; the next one starts a fresh worker.
    worker.on("error", (error) => this.onWorkerGone(worker, error));
    worker.on("exit", (code) => this.onWorkerGone(worker, new Error(`image worker exited with code ${code}`)));
    this.worker = worker;
    return worker;
  }

  private onReply(reply: WorkerReply): void {
    const job = this.running;
    if (!job || job.id !== reply.id) return;
    if (reply.type === "progress") {
      job.options.onProgress?.(reply.done, reply.total);
      return;
    }
    this.running = undefined;
    this.settle(job, () => {
      if (reply.type === "done") job.resolve(reply.images.map((image) => ({ ...image, pixels: new Uint8Array(image.pixels) })));
      else job.reject(this.errorOf(reply));
    });
    if (this.queue.length === 0) this.worker?.unref(); // an idle worker must not keep the process alive
    this.startNext();
  }

  private errorOf(reply: FailedReply): Error {
    if (reply.cancelled) return new GenerationCancelledError();
    if (reply.loading) return new ImageModelLoadError(this.modelId, reply.message);
    // Answered 400 naming the field (the error's class does not cross the thread).
    if (reply.param !== undefined) return new EngineInputError(reply.message, reply.param, reply.code ?? null);
    return new Error(reply.message);
  }

  private onWorkerGone(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    if (this.running) this.fail(error);
    this.startNext();
  }

  private fail(error: Error): void {
    const job = this.running!;
    this.running = undefined;
    this.settle(job, () => job.reject(error));
  }

  private settle(job: Job, action: () => void): void {
    job.options.signal?.removeEventListener("abort", job.onAbort);
    action();
  }
}
