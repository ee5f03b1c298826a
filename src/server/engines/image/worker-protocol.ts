import type { GenerationParams, RgbImage } from "./diffusion-pipeline";

/** What the image worker is started with. */
export interface ImageWorkerData {
  modelDir: string;
  threads: number;
}

export interface GenerateMessage {
  type: "generate";
  id: number;
  params: GenerationParams;
  /** Int32 flag the main thread sets to 1 to cancel; read between steps (the worker is busy). */
  cancel: SharedArrayBuffer;
}

export type WorkerReply =
  | { type: "progress"; id: number; done: number; total: number }
  | { type: "done"; id: number; images: RgbImage[] }
  /** `loading`: the model's files could not be loaded (the next request loads them again). */
  /** `param`: the request asked for what the model cannot make (an EngineInputError's param and code). */
  | { type: "failed"; id: number; message: string; cancelled: boolean; loading: boolean; param?: string; code?: string | null };

export type FailedReply = Extract<WorkerReply, { type: "failed" }>;
