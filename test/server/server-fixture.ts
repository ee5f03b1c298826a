// Starts a real wisp-server app on an ephemeral port (loopback unless `host` says otherwise), with
// temporary models/data dirs holding the generated default model, and an API key; `close()`
// removes everything.
import { copyFile, mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import OpenAI from "openai";
import { buildApp, type BuildAppOptions } from "../../src/server/app";
import type { ServerDeps } from "../../src/server/deps";
import type { ServerMetrics } from "../../src/server/routes/metrics";
import { endlessLogitBias } from "../harness/endless-logit-bias";

export const TEXT_MODEL = "wisp-tiny";

export interface TestServer {
  app: FastifyInstance;
  deps: ServerDeps;
  baseURL: string;
  origin: string;
  key: string;
  /** The web console's admin token. */
  adminToken: string;
  client: OpenAI;
  dir: string;
  /** fetch against the server with the API key (unless headers say otherwise). */
  fetch(pathName: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  close(): Promise<void>;
}

export interface StartOptions extends Partial<BuildAppOptions> {
  prepare?: (modelsDir: string) => Promise<void>;
  /** Runs on the built app before it listens (hooks can be added only then). */
  beforeListen?: (app: FastifyInstance) => void;
}

export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "wisp-server-test-"));
  const modelsDir = path.join(dir, "models");
  const { prepare, beforeListen, ...rest } = options;
  await prepare?.(modelsDir);
  const { app, deps, adminToken } = await buildApp({ modelsDir, dataDir: path.join(dir, "data"), parallel: 2, contextSize: 2048, ...rest });
  beforeListen?.(app);
  const { secret } = await deps.keys.create("test");
  // On the host it is configured with (a wildcard one still answers at 127.0.0.1, the origin).
  const origin = await app.listen({ host: rest.host ?? "127.0.0.1", port: rest.port ?? 0 });
  const baseURL = `${origin}/v1`;
  return {
    app,
    deps,
    baseURL,
    origin,
    key: secret,
    adminToken: adminToken!,
    dir,
    client: new OpenAI({ baseURL, apiKey: secret, maxRetries: 0 }),
    fetch(pathName, init = {}) {
      const { json, headers, ...restInit } = init;
      return fetch(`${origin}${pathName}`, {
        method: json === undefined ? "GET" : "POST",
        body: json === undefined ? undefined : JSON.stringify(json),
        ...restInit,
        headers: { authorization: `Bearer ${secret}`, "content-type": "application/json", ...(headers as Record<string, string>) },
      });
    },
    async close() {
      await app.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Reads an SSE body into its `data:` payloads (parsed JSON, or the raw string for [DONE]). */
export async function readSse(response: Response): Promise<unknown[]> {
  const text = await response.text();
  return text
    .split("\n\n")
    .filter((block) => block.startsWith("data: "))
    .map((block) => block.slice("data: ".length))
    .map((data) => (data === "[DONE]" ? data : JSON.parse(data)));
}

/** logit_bias that forbids every end-of-generation token of TEXT_MODEL, so a generation runs to max_tokens. */
export async function neverEnd(server: TestServer): Promise<Record<string, number>> {
  return endlessLogitBias(await server.deps.textEngine.model(TEXT_MODEL, server.deps.registry.get(TEXT_MODEL)!.path));
}

/** GET /metrics.json of the server: the engines' counters (it needs no key). */
export const metricsOf = async (server: TestServer): Promise<ServerMetrics> => (await (await fetch(`${server.origin}/metrics.json`)).json()) as ServerMetrics;

/**
 * A usage's token counts, without how much of the prompt the engine had kept (cached_tokens): that
 * depends on what the sequence served before, not on the answer.
 */
export const counted = (usage: { prompt_tokens: number; completion_tokens: number; total_tokens?: number } | null | undefined) =>
  usage && { prompt_tokens: usage.prompt_tokens, completion_tokens: usage.completion_tokens, total_tokens: usage.total_tokens };

/** A startServer `prepare` that serves the shipped trained model, models/wisp-coder.gguf, as `wisp-coder`. */
export async function withShippedCoder(modelsDir: string): Promise<void> {
  await mkdir(modelsDir, { recursive: true });
  await copyFile(path.resolve("models/wisp-coder.gguf"), path.join(modelsDir, "wisp-coder.gguf"));
}
