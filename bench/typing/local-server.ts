// Starts the real local server (bin/wisp-server.js) in its own process, with a fresh key: on the
// large generated model (declaring one FIM layout or the other) for the typing replay, or on any
// GGUF file.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, symlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { KeyStore } from "../../src/server/auth/key-store";
import { TINY_LLAMA_SIZES } from "../../src/server/models/tiny-llama";
import { writeTinyLlamaGguf } from "../../src/server/models/write-tiny-llama";
import { freePort } from "../../test/harness/free-port";
import { pinnedCommand, type CpuPin } from "../engine/cpu-pin";

export interface EngineMetrics {
  requests: number;
  aborted: number;
  promptTokensEvaluated: number;
  promptTokensCached: number;
  completionTokens: number;
}

export interface LocalServer {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly model: string;
  /** The server's process id (its CPU time can be read from /proc). */
  readonly pid: number | undefined;
  metrics(): Promise<EngineMetrics>;
  /** CPU time the server's process has used so far, all threads (ms, in 10 ms ticks). */
  cpuMs(): number;
  /** What the server printed so far (a line per request, with its prompt reuse). */
  output(): string;
  stop(): Promise<void>;
}

export const BENCH_MODEL = TINY_LLAMA_SIZES.large.name;

/** The fill-in-the-middle layout the model declares: prefix-suffix-middle, or suffix first. */
export type FimLayout = "psm" | "spm";

/** The large generated model, declaring `layout`, served as BENCH_MODEL. */
export async function startLocalServer(layout: FimLayout): Promise<LocalServer> {
  const modelFile = path.resolve(".cache/models", `${BENCH_MODEL}-${layout}.gguf`);
  if (!existsSync(modelFile)) {
    console.log(`generating ${modelFile} (once)...`);
    await mkdir(path.dirname(modelFile), { recursive: true });
    await writeTinyLlamaGguf(modelFile, "large", { fimLayout: layout === "spm" ? "suffix-first" : "prefix-suffix-middle" });
  }
  return startWispServer(modelFile, BENCH_MODEL);
}

/** bin/wisp-server.js in its own process group, serving `modelFile` as `model`, with a fresh key. */
export async function startWispServer(modelFile: string, model: string, extraArgs: readonly string[] = [], pin?: CpuPin): Promise<LocalServer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "wisp-bench-"));
  const modelsDir = path.join(dir, "models");
  const dataDir = path.join(dir, "data");
  await mkdir(modelsDir);
  await symlink(modelFile, path.join(modelsDir, `${model}.gguf`));
  const { secret } = await new KeyStore(dataDir).create("bench");
  const port = await freePort();
  const args = ["bin/wisp-server.js", "--port", String(port), "--models-dir", modelsDir, "--data-dir", dataDir, ...extraArgs];
  const child = spawn(...pinnedCommand(pin, process.execPath, args), { stdio: ["ignore", "pipe", "pipe"], detached: true });
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  const root = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await stopGroup(child);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(root, () => child.exitCode !== null);
  } catch (error) {
    await stop();
    throw new Error(`the local server did not start: ${(error as Error).message}\n${output}`);
  }
  return {
    baseUrl: `${root}/v1`,
    apiKey: secret,
    model,
    pid: child.pid,
    metrics: async () => (await (await fetch(`${root}/metrics.json`)).json()) as EngineMetrics,
    cpuMs: () => processCpuMs(child.pid),
    output: () => output,
    stop,
  };
}

/** utime + stime of /proc/PID/stat (fields 14 and 15, after the parenthesised name), in ms. */
function processCpuMs(pid: number | undefined): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /s, "").split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** SIGTERM to a detached child's process group, SIGKILL after half a second. */
export async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.pid !== undefined) {
    process.kill(-child.pid, "SIGTERM");
    await new Promise((done) => setTimeout(done, 500));
    if (child.exitCode === null) process.kill(-child.pid, "SIGKILL");
  }
}

export async function waitForHealth(root: string, exited: () => boolean): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (exited()) throw new Error("it exited");
    try {
      if ((await fetch(`${root}/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((done) => setTimeout(done, 200));
  }
  throw new Error("no answer on /health within 60 s");
}
