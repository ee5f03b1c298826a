import { spawnSync } from "node:child_process";
import { createWriteStream } from "node:fs";
import { join } from "node:path";
import { createApiKey, startLocalServer, type LocalServer } from "../../scripts/start/local-server";
import type { TextEngineMetrics } from "../../src/server/engines/text/text-engine";
import { freePort } from "./free-port";
import { TempDirs } from "./temp-dirs";

/** The text engine's counters as GET /metrics.json shows them. */
export type TextMetrics = TextEngineMetrics;

export interface LocalTextServer {
  /** OpenAI-style base URL, ending in /v1. */
  baseUrl: string;
  key: string;
  /** The id of the one text model it serves. */
  model: string;
  /** The folder it serves models from (files added there are served without a restart). */
  modelsDir: string;
  metrics(): Promise<TextMetrics>;
  /** A plain (non-streamed) POST /v1/completions with the key; returns the parsed body. */
  complete(body: Record<string, unknown>): Promise<{ choices: { text: string; finish_reason: string }[]; usage: { completion_tokens: number } }>;
  stop(): Promise<void>;
}

/**
 * The real wisp-server (bin/wisp-server.js, its own process group) on a freshly generated tiny
 * model, with a key made by `wisp-server keys create`: what the completion tests talk to.
 * `root` is the repository (the extension host cannot derive it from import.meta). `endless`: a
 * model whose answers never end before max_tokens (gen-models --endless), for tests that stop one.
 */
export async function startLocalTextServer(root: string, options: { size?: "tiny" | "large"; endless?: boolean } = {}): Promise<LocalTextServer> {
  const model = options.size === "large" ? "wisp-large" : "wisp-tiny";
  const temp = new TempDirs();
  let server: LocalServer | undefined;
  const log = createWriteStream(join(temp.make("text-server-log"), "server.log"));
  const stop = async () => {
    await server?.process.stop();
    await new Promise<void>((done) => log.end(done));
    temp.removeAll();
  };
  try {
    const modelsDir = temp.make("text-server-models");
    const dataDir = temp.make("text-server-data");
    generateTinyModel(root, join(modelsDir, `${model}.gguf`), options.size ?? "tiny", options.endless ?? false);
    const key = createApiKey(root, dataDir, "completion-tests");
    server = await startLocalServer({ root, port: await freePort(), modelsDir, dataDir, log });
    const { baseUrl } = server;
    const origin = baseUrl.replace(/\/v1$/, "");
    return {
      baseUrl,
      key,
      model,
      modelsDir,
      metrics: async () => (await (await fetch(`${origin}/metrics.json`)).json()) as TextMetrics,
      complete: async (body) => {
        const response = await fetch(`${baseUrl}/completions`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        if (!response.ok) throw new Error(`POST /v1/completions: ${response.status} ${await response.text()}`);
        return response.json();
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The same generated model `npm start` and the server tests use (deterministic, half a second). */
function generateTinyModel(root: string, out: string, size: "tiny" | "large", endless: boolean): void {
  const args = ["--size", size, ...(endless ? ["--endless"] : []), "--out", out];
  const result = spawnSync(process.execPath, ["--import", "tsx", "scripts/gen-models.ts", ...args], { cwd: root, encoding: "utf8", timeout: 120_000 });
  if (result.status !== 0) throw new Error(`scripts/gen-models.ts failed:\n${result.stdout}${result.stderr}`);
}
