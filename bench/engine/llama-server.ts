// llama.cpp's own server on a GGUF file, for side-by-side speed figures: same model, same thread
// count, one slot. The binary is LLAMA_SERVER's, or the one build-llama-server.sh built (once, cached).
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { freePort } from "../../test/harness/free-port";
import { stopGroup, waitForHealth } from "../typing/local-server";
import { pinnedCommand, type CpuPin } from "./cpu-pin";

export interface LlamaServer {
  readonly baseUrl: string;
  /** The server's process id (its memory can be read from /proc). */
  readonly pid: number | undefined;
  /** Prompt tokens the server has evaluated so far (its /metrics counter). */
  promptTokensEvaluated(): Promise<number>;
  stop(): Promise<void>;
}

export interface LlamaServerOptions {
  threads: number;
  /** Threads for prompt batches (default: threads). */
  threadsBatch?: number;
  contextSize: number;
  pin?: CpuPin;
  /** More flags, e.g. llama.vscode's recommended `-b 1024 -ub 1024 --cache-reuse 256`. */
  extraArgs?: readonly string[];
}

/** LLAMA_SERVER, or the build of the llama.cpp source node-llama-cpp ships (built on first use: ~16 min on 2 cores). */
export function llamaServerBinary(): string {
  const named = process.env.LLAMA_SERVER;
  if (named) {
    if (!existsSync(named)) throw new Error(`LLAMA_SERVER=${named} does not exist`);
    return named;
  }
  const script = path.resolve(import.meta.dirname, "build-llama-server.sh");
  console.log("llama-server: using the cached build of node-llama-cpp's llama.cpp source (building it first if missing, ~16 min on 2 cores)...");
  const built = spawnSync("bash", [script], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  if (built.status !== 0) throw new Error(`building llama-server failed (${script})`);
  return built.stdout.trim().split("\n").at(-1)!;
}

export async function startLlamaServer(binary: string, modelFile: string, options: LlamaServerOptions): Promise<LlamaServer> {
  const port = await freePort();
  const args = ["-m", modelFile, "-t", String(options.threads), "-tb", String(options.threadsBatch ?? options.threads), "-c", String(options.contextSize), "-np", "1", "--metrics", "--host", "127.0.0.1", "--port", String(port), ...(options.extraArgs ?? [])];
  const child = spawn(...pinnedCommand(options.pin, binary, args), { stdio: ["ignore", "pipe", "pipe"], detached: true });
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  const root = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(root, () => child.exitCode !== null);
  } catch (error) {
    await stopGroup(child);
    throw new Error(`llama-server did not start: ${(error as Error).message}\n${output.slice(-2000)}`);
  }
  const promptTokensEvaluated = async () => {
    const text = await (await fetch(`${root}/metrics`)).text();
    return Number(/^llamacpp:prompt_tokens_total\s+(\S+)/m.exec(text)?.[1] ?? NaN);
  };
  return { baseUrl: `${root}/v1`, pid: child.pid, promptTokensEvaluated, stop: () => stopGroup(child) };
}
