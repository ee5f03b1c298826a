// Generation steps on the server's own thread (native/decode-step.cpp, built by
// scripts/build-native.mjs): llama.cpp's decode and a sampling step as plain calls, where
// node-llama-cpp queues each as a job on libuv's thread pool. Used only with the node-llama-cpp
// version it was built against; anything else, and the batch decoder keeps node-llama-cpp's calls.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { NativeContext, NativeSampler } from "./node-llama-cpp-internals";

export interface NativeStep {
  /** Decodes the context's current batch (as NativeContext.decodeBatch, synchronously). */
  decode(context: NativeContext): void;
  /** The next token at a logit index of the last decode, or -1 (as NativeContext.sampleToken). */
  sample(context: NativeContext, batchLogitIndex: number, sampler: NativeSampler): number;
  /**
   * Steps of one sequence: decodes `token` at `position` and samples the next into out[0], then
   * goes on from that token while out has room, no end-of-generation token came and another step
   * fits in budgetMs. Returns n: `token` and out[0..n-2] were decoded, out[0..n-1] sampled (-1:
   * could not be). Throws only when the first decode fails.
   */
  generate(context: NativeContext, sequenceId: number, position: number, token: number, sampler: NativeSampler, budgetMs: number, out: Int32Array): number;
  /** out[j] = log P(tokens[j]) at a logit index of the last decode: the model's own distribution, no sampler. */
  logprobs(context: NativeContext, batchLogitIndex: number, tokens: Int32Array, out: Float64Array): void;
  /**
   * Hands the C allocator's free pages back to the system (glibc's malloc_trim; false elsewhere):
   * what loading a model frees on node-llama-cpp's threads stays resident otherwise. Missing from
   * builds of an older native/decode-step.cpp.
   */
  releaseFreeMemory?(): boolean;
}

export type NativeStepLoad = { step: NativeStep; reason?: undefined } | { step?: undefined; reason: string };

/** The addon's exports: the step itself, once bound to node-llama-cpp's loaded binary. */
interface Addon extends NativeStep {
  /** Binds to node-llama-cpp's loaded binary: "" when done, else why not. */
  bind(): string;
}

const relativePath = "build/native/decode-step.node";

/** build/native/decode-step.node in the nearest folder up from `from` that has one. */
export function findNativeStep(from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const file = join(dir, relativePath);
    if (existsSync(file)) return file;
    if (dirname(dir) === dir) return undefined;
  }
}

/** The installed node-llama-cpp's version, as its package.json says. */
export function nodeLlamaCppVersion(from: string): string {
  const entry = createRequire(join(from, "noop.js")).resolve("node-llama-cpp");
  return (JSON.parse(readFileSync(join(dirname(dirname(entry)), "package.json"), "utf8")) as { version: string }).version;
}

/**
 * Loads the native step. Call it once node-llama-cpp has loaded its binary (the step binds to
 * that copy). `from` (where to look for the build) and `version` are for tests; by default both
 * are looked up from this module.
 */
export function loadNativeStep(options: { from?: string; version?: string } = {}): NativeStepLoad {
  const here = dirname(fileURLToPath(import.meta.url));
  const file = findNativeStep(options.from ?? here);
  // Packages for other platforms than the one they are made on have none: it is optional.
  if (file === undefined) return { reason: `not built for ${process.platform}-${process.arch} (${relativePath}; npm run build:native where a C++ compiler is)` };
  let builtFor: string;
  try {
    builtFor = (JSON.parse(readFileSync(file.replace(/\.node$/, ".json"), "utf8")) as { nodeLlamaCpp: string }).nodeLlamaCpp;
  } catch {
    return { reason: `${file} has no build record beside it (npm run build:native)` };
  }
  const installed = options.version ?? nodeLlamaCppVersion(here);
  if (builtFor !== installed) return { reason: `built for node-llama-cpp ${builtFor}, this is ${installed} (npm run build:native)` };
  let addon: Addon;
  try {
    addon = createRequire(import.meta.url)(file) as Addon;
  } catch (error) {
    return { reason: `cannot load ${file}: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (typeof addon.logprobs !== "function") return { reason: `${file} was built from an older native/decode-step.cpp (npm run build:native)` };
  const problem = addon.bind();
  if (problem !== "") return { reason: problem };
  return { step: addon };
}
