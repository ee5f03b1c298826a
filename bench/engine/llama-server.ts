// llama.cpp's own server (a native build named by LLAMA_SERVER) on a GGUF file, for side-by-side
// speed figures: same model, same thread count, one slot.
import { spawn } from "node:child_process";
import { freePort } from "../../test/harness/free-port";
import { stopGroup, waitForHealth } from "../typing/local-server";
import { pinnedCommand, type CpuPin } from "./cpu-pin";

export interface LlamaServer {
  readonly baseUrl: string;
  stop(): Promise<void>;
}

export async function startLlamaServer(binary: string, modelFile: string, options: { threads: number; contextSize: number; pin?: CpuPin }): Promise<LlamaServer> {
  const port = await freePort();
  const threads = String(options.threads);
  const args = ["-m", modelFile, "-t", threads, "-tb", threads, "-c", String(options.contextSize), "-np", "1", "--host", "127.0.0.1", "--port", String(port)];
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
  return { baseUrl: `${root}/v1`, stop: () => stopGroup(child) };
}
