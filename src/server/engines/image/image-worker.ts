// Worker-thread entry: owns one model's onnxruntime sessions, whose run() blocks its thread.
// Bundled as dist/server/image-worker.js (scripts/build.mjs bundles every *-worker.ts).
import { type MessagePort, parentPort, workerData } from "node:worker_threads";
import { DiffusionPipeline } from "./diffusion-pipeline";
import { GenerationCancelledError } from "./image-errors";
import type { GenerateMessage, ImageWorkerData, WorkerReply } from "./worker-protocol";

function serve(port: MessagePort, data: ImageWorkerData): void {
  // Loading here, not in the main thread, keeps session creation off the server's event loop.
  const pipeline = DiffusionPipeline.load(data.modelDir, { threads: data.threads });
  pipeline.catch(() => undefined); // reported per request below
  const reply = (message: WorkerReply, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

  port.on("message", async (message: GenerateMessage) => {
    const cancelFlag = new Int32Array(message.cancel);
    try {
      const images = await (await pipeline).generate(message.params, {
        isCancelled: () => Atomics.load(cancelFlag, 0) !== 0,
        onStep: (done, total) => reply({ type: "progress", id: message.id, done, total }),
      });
      reply({ type: "done", id: message.id, images }, images.map((image) => image.pixels.buffer as ArrayBuffer));
    } catch (error) {
      const cancelled = error instanceof GenerationCancelledError;
      reply({ type: "failed", id: message.id, message: error instanceof Error ? error.message : String(error), cancelled });
    }
  });
}

if (parentPort) serve(parentPort, workerData as ImageWorkerData);
