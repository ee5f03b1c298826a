// Worker-thread entry: owns one model's onnxruntime sessions, whose run() blocks its thread.
// Bundled as dist/server/image-worker.js (scripts/build.mjs bundles every *-worker.ts).
import { type MessagePort, parentPort, workerData } from "node:worker_threads";
import { EngineInputError } from "../../engine-input-error";
import { DiffusionPipeline } from "./diffusion-pipeline";
import { GenerationCancelledError } from "./image-errors";
import type { FailedReply, GenerateMessage, ImageWorkerData, WorkerReply } from "./worker-protocol";

function serve(port: MessagePort, data: ImageWorkerData): void {
  // Loading here, not in the main thread, keeps session creation off the server's event loop.
  const load = () => {
    const loading = DiffusionPipeline.load(data.modelDir, { threads: data.threads });
    // Reported per request below; the next request loads again (a model folder still being
    // copied, or a broken file replaced, works without restarting the server).
    loading.catch(() => {
      if (pipeline === loading) pipeline = undefined;
    });
    return loading;
  };
  let pipeline: Promise<DiffusionPipeline> | undefined = load();
  const reply = (message: WorkerReply, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
  const failed = (id: number, error: unknown, how: Pick<FailedReply, "cancelled" | "loading" | "param" | "code">) =>
    reply({ type: "failed", id, message: error instanceof Error ? error.message : String(error), ...how });

  port.on("message", async (message: GenerateMessage) => {
    const cancelFlag = new Int32Array(message.cancel);
    let loaded: DiffusionPipeline;
    try {
      loaded = await (pipeline ??= load());
    } catch (error) {
      return failed(message.id, error, { cancelled: false, loading: true });
    }
    try {
      const images = await loaded.generate(message.params, {
        isCancelled: () => Atomics.load(cancelFlag, 0) !== 0,
        onStep: (done, total) => reply({ type: "progress", id: message.id, done, total }),
      });
      reply({ type: "done", id: message.id, images }, images.map((image) => image.pixels.buffer as ArrayBuffer));
    } catch (error) {
      const input = error instanceof EngineInputError ? { param: error.param, code: error.code } : {};
      failed(message.id, error, { cancelled: error instanceof GenerationCancelledError, loading: false, ...input });
    }
  });
}

if (parentPort) serve(parentPort, workerData as ImageWorkerData);
