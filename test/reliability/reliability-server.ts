// The real wisp-server as its own process (dist/server/main.js), as users run it: cross-process
// timing is what shows EPIPEs, slow clients and memory; the default models are generated on start.
import { createWriteStream, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createApiKey, startLocalServer, type LocalServer } from "../../scripts/start/local-server";
import type { TextEngineMetrics } from "../../src/server/engines/text/text-engine";
import { freePort } from "../harness/free-port";
import { TempDirs } from "../harness/temp-dirs";
import { waitFor } from "../harness/wait-for";

export const root = join(import.meta.dirname, "..", "..");
export const TEXT_MODEL = "wisp-tiny";
export const IMAGE_MODEL = "wisp-tiny-diffusion";

export interface ReliabilityServer {
  readonly origin: string;
  readonly baseUrl: string;
  readonly key: string;
  readonly dataDir: string;
  /** Where the server generates its default models on start. */
  readonly modelsDir: string;
  readonly pid: number;
  /** Everything the server printed so far. */
  output(): string;
  alive(): boolean;
  metrics(): Promise<TextEngineMetrics>;
  /** A full garbage collection in the server, and its memory after it (started with `gcProbe` only). */
  collectGarbage(): Promise<MemoryAfterGc>;
  /** fetch with the key (unless the headers say otherwise). */
  fetch(pathName: string, init?: RequestInit): Promise<Response>;
  stop(): Promise<void>;
}

export async function startReliabilityServer(options: { args?: string[]; dataDir?: string; gcProbe?: boolean } = {}): Promise<ReliabilityServer> {
  if (!existsSync(join(root, "dist/server/main.js"))) throw new Error("dist/server/main.js is missing: run `npm run build` first");
  const temp = new TempDirs();
  const logDir = temp.make("reliability-log");
  const logFile = join(logDir, "server.log");
  const log = createWriteStream(logFile);
  const dataDir = options.dataDir ?? temp.make("reliability-data");
  const modelsDir = temp.make("reliability-models");
  let server: LocalServer | undefined;
  const stop = async () => {
    await server?.process.stop();
    await new Promise<void>((done) => log.end(done));
    temp.removeAll();
  };
  try {
    const key = createApiKey(root, dataDir, "reliability");
    const gcFile = join(logDir, "gc-probe.json");
    const env = options.gcProbe
      ? { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --require "${join(import.meta.dirname, "gc-probe.cjs")}"`.trim(), WISP_GC_PROBE_FILE: gcFile }
      : process.env;
    server = await startLocalServer({ root, port: await freePort(), modelsDir, dataDir, log, extraArgs: options.args, env });
    const { baseUrl, process: group } = server;
    const origin = baseUrl.replace(/\/v1$/, "");
    const pid = group.child.pid!;
    return {
      origin,
      baseUrl,
      key,
      dataDir,
      modelsDir,
      pid,
      output: () => (existsSync(logFile) ? readFileSync(logFile, "utf8") : ""),
      alive: () => group.child.exitCode === null && group.child.signalCode === null,
      metrics: async () => (await (await fetch(`${origin}/metrics.json`)).json()) as TextEngineMetrics,
      collectGarbage: () => (options.gcProbe ? collectGarbage(pid, gcFile) : Promise.reject(new Error("started without gcProbe"))),
      fetch: (pathName, init = {}) =>
        fetch(`${origin}${pathName}`, { ...init, headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...(init.headers as Record<string, string>) } }),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** process.memoryUsage() in the server right after a full garbage collection, bytes. */
export interface MemoryAfterGc {
  heapUsed: number;
  rss: number;
  external: number;
  arrayBuffers: number;
}

/** Sends the preloaded probe its signal and waits for what it writes back. */
async function collectGarbage(pid: number, file: string): Promise<MemoryAfterGc> {
  const read = () => (existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as MemoryAfterGc & { count: number }) : undefined);
  const before = read()?.count ?? 0;
  process.kill(pid, "SIGUSR2");
  return (await waitFor("the server's garbage-collection probe", read, (now) => now !== undefined && now.count > before, 30_000))!;
}

/** Polls /metrics.json until no sequence is busy or waiting; returns how long that took. */
export async function untilIdle(server: ReliabilityServer, timeoutMs = 10_000): Promise<number> {
  const started = Date.now();
  for (;;) {
    const m = await server.metrics();
    if (m.sequences.busy === 0 && m.sequences.waiting === 0) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`server still busy after ${timeoutMs} ms: ${JSON.stringify(m.sequences)}`);
    await new Promise((done) => setTimeout(done, 20));
  }
}

/** An OpenAI-shaped error body, or a description of what is wrong with it. */
export function errorShapeProblem(body: unknown): string | undefined {
  const error = (body as { error?: Record<string, unknown> } | null)?.error;
  if (typeof error !== "object" || error === null) return "no error object";
  if (typeof error.message !== "string" || error.message === "") return "error.message is not a non-empty string";
  if (typeof error.type !== "string") return "error.type is not a string";
  if (!(error.param === null || typeof error.param === "string")) return "error.param is not a string or null";
  if (!(error.code === null || typeof error.code === "string")) return "error.code is not a string or null";
  return undefined;
}

/** What a healthy client saw while `work` ran: GET /v1/models every `everyMs`. */
export interface HealthyClient {
  readonly latenciesMs: number[];
  readonly failures: number;
}

export async function whileProbing<T>(server: ReliabilityServer, everyMs: number, work: () => Promise<T>): Promise<{ result: T; healthy: HealthyClient }> {
  const healthy = { latenciesMs: [] as number[], failures: 0 };
  let stop = false;
  const probe = (async () => {
    while (!stop) {
      const started = Date.now();
      const response = await server.fetch("/v1/models").catch(() => undefined);
      if (response?.status === 200) healthy.latenciesMs.push(Date.now() - started);
      else healthy.failures++;
      await response?.text();
      await new Promise((done) => setTimeout(done, everyMs));
    }
  })();
  try {
    return { result: await work(), healthy };
  } finally {
    stop = true;
    await probe;
  }
}
