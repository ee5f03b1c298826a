// Loads llama.cpp's binary once and each model once per id, with its context, its sequences
// (`parallel` of them, handed out by a SequencePool) and, where node-llama-cpp allows it, the batch
// decoder that drives decoding directly.
import { getLlama, type Llama, type LlamaModel } from "node-llama-cpp";
import { llamaGpu } from "../native-engines";
import { BatchDecoder } from "./batch-decoder";
import { ModelLoadError } from "../../model-load-error";
import { loadNativeStep, type NativeStepLoad } from "./native-step";
import { directDecodingAvailable } from "./node-llama-cpp-internals";
import { SequencePool } from "./sequence-pool";

export interface ModelLoaderOptions {
  threads: number;
  /** Threads for prompt-sized decodes through the batch decoder (default: threads). */
  threadsBatch?: number;
  parallel: number;
  contextSize: number;
  /** Requests that may wait for a sequence; more get a 429. */
  maxQueue: number;
  /** Generation steps on the server's thread where decode-step is built (native-step.ts); default true. */
  nativeStep?: boolean;
}

export interface LoadedModel {
  model: LlamaModel;
  pool: SequencePool;
  /** Drives decoding directly (see batch-decoder.ts); undefined where node-llama-cpp lacks what it needs. */
  decoder?: BatchDecoder;
}

export class ModelLoader {
  private llama?: Promise<Llama>;
  private nativeStep?: NativeStepLoad;
  private readonly loaded = new Map<string, Promise<LoadedModel>>();
  /** Pools of the models loaded so far, for metrics. */
  readonly pools = new Set<SequencePool>();

  constructor(private readonly options: ModelLoaderOptions) {}

  binary(): Promise<Llama> {
    // node-llama-cpp prefers a build of its own for this machine over its prebuilt binaries when
    // one was made (its `source download` command); nothing is ever built or downloaded here.
    // Apple silicon's prebuilt binary is the Metal one; everywhere else the CPU one.
    this.llama ??= getLlama({ gpu: llamaGpu(`${process.platform}-${process.arch}`), build: "never", logLevel: "error" as never });
    return this.llama;
  }

  /** Which llama.cpp binary runs the models, for the server's start-up lines. */
  async describeBinary(): Promise<string> {
    const llama = await this.binary();
    const kind = llama.buildType === "localBuild" ? "node-llama-cpp's own build for this machine" : `node-llama-cpp's prebuilt ${llama.gpu === "metal" ? "Metal" : "CPU"} binaries`;
    const { reason } = this.stepLoad();
    const steps = reason === undefined ? "generation steps on the server's thread (decode-step)" : `generation steps on node-llama-cpp's thread pool: ${reason}`;
    return `llama.cpp ${llama.llamaCppRelease.release}, ${kind}; ${steps}`;
  }

  /** The native step, loaded once the binary is (it binds to node-llama-cpp's loaded copy). */
  private stepLoad(): NativeStepLoad {
    return this.options.nativeStep === false ? { reason: "off (--no-native-step)" } : this.addon();
  }

  /** decode-step, loaded once, whether generation steps use it or not. */
  private addon(): NativeStepLoad {
    this.nativeStep ??= loadNativeStep();
    return this.nativeStep;
  }

  /** Hands freed native memory back to the system where decode-step can (see NativeStep.releaseFreeMemory). */
  private releaseFreeMemory(): void {
    this.addon().step?.releaseFreeMemory?.();
  }

  /**
   * `work` (a load or a context's creation on node-llama-cpp's threads), with freed memory handed
   * back every 25 ms while it runs and once it is done. Both free much on the way: a model's load
   * its metadata, its vocabulary's build-up and q4_0 weights read before they are repacked; a
   * context's creation a simulated model and context (node-llama-cpp's memory estimate, the
   * vocabulary again) just before the real cache is allocated. Left in place, that memory counts
   * in the peak beside the weights and the cache (0.5B: 60-200 MiB).
   */
  private async releasingWhile<T>(work: Promise<T>): Promise<T> {
    const timer = setInterval(() => this.releaseFreeMemory(), 25);
    try {
      return await work;
    } finally {
      clearInterval(timer);
      this.releaseFreeMemory();
    }
  }

  /** Loads (once) the GGUF at `path` under `id`; a load that fails is tried again next time. */
  load(id: string, path: string): Promise<LoadedModel> {
    let entry = this.loaded.get(id);
    if (!entry) {
      entry = (async () => {
        // Direct I/O reads the weights once into the process: with mmap, the file's pages stayed
        // resident beside the CPU backend's repacked copy of the same weights (0.5B q4_0: 190 MiB more).
        const llama = await this.binary();
        const model = await this.releasingWhile(llama.loadModel({ modelPath: path, useDirectIo: true })).catch((error: unknown) => {
          throw new ModelLoadError(id, path, error);
        });
        // node-llama-cpp keeps the GGUF's metadata in JavaScript, BPE merges included (qwen2: 151k
        // strings, 6 MiB), which nothing reads again: llama.cpp tokenizes from its own copy.
        delete (model.fileInfo.metadata.tokenizer?.ggml as { merges?: unknown } | undefined)?.merges;
        const context = await this.releasingWhile(model.createContext({
          contextSize: Math.min(this.options.contextSize, model.trainContextSize),
          sequences: this.options.parallel,
          threads: this.options.threads,
          // As llama-server does on CPUs: attention without the full score matrix, 1.7x the prompt
          // speed on a 1,500-token prompt of the 0.5B model.
          flashAttention: true,
        }));
        const pool = new SequencePool(context, this.options.maxQueue);
        this.pools.add(pool);
        const direct = pool.sequences.every((s) => directDecodingAvailable(model, context, s));
        const threads = { generation: this.options.threads, prompt: this.options.threadsBatch ?? this.options.threads };
        return { model, pool, decoder: direct ? new BatchDecoder(context, context.batchSize, threads, this.stepLoad().step) : undefined };
      })();
      entry.catch(() => this.loaded.delete(id));
      this.loaded.set(id, entry);
    }
    return entry;
  }

  /** Frees every model, then the binary; nothing may be generating any more. */
  async dispose(): Promise<void> {
    const entries = await Promise.allSettled(this.loaded.values());
    this.loaded.clear();
    for (const e of entries) if (e.status === "fulfilled") await e.value.model.dispose();
    if (this.llama) await (await this.llama).dispose();
  }
}
