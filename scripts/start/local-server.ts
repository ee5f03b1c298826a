import { spawnSync } from "node:child_process";
import type { WriteStream } from "node:fs";
import { join } from "node:path";
import { spawnGroup, type GroupProcess } from "../../test/harness/process-group";

export interface LocalServer {
  /** OpenAI-style base URL, ending in /v1. */
  baseUrl: string;
  process: GroupProcess;
}

const serverBin = (root: string): string => join(root, "bin/wisp-server.js");

/** `wisp-server keys create`: returns the new key's secret (the last line it prints). */
export function createApiKey(root: string, dataDir: string, name: string): string {
  const result = spawnSync(process.execPath, [serverBin(root), "keys", "create", "--name", name, "--data-dir", dataDir], {
    encoding: "utf8",
    timeout: 60_000,
  });
  const secret = result.stdout.trim().split("\n").at(-1)?.trim();
  if (result.status !== 0 || !secret) throw new Error(`wisp-server keys create failed:\n${result.stdout}${result.stderr}`);
  return secret;
}

/**
 * Starts wisp-server in its own process group and resolves once it listens. Its output goes to
 * `log`; the lines printed until then also to `onStartupLine`.
 */
export async function startLocalServer(options: {
  root: string;
  port: number;
  modelsDir: string;
  dataDir: string;
  log: WriteStream;
  onStartupLine?: (line: string) => void;
  timeoutMs?: number;
  /** More wisp-server options. */
  extraArgs?: readonly string[];
}): Promise<LocalServer> {
  const args = [serverBin(options.root), "--host", "127.0.0.1", "--port", String(options.port), "--models-dir", options.modelsDir, "--data-dir", options.dataDir, ...(options.extraArgs ?? [])];
  const server = spawnGroup(process.execPath, args, { cwd: options.root, stdio: ["ignore", "pipe", "pipe"] });
  let pending = "";
  let recent = "";
  let started = false;
  const listening = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      options.log.write(chunk);
      if (started) return;
      recent = (recent + chunk.toString()).slice(-2000);
      pending += chunk.toString();
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        options.onStartupLine?.(line);
        const match = /listening on (\S+)/.exec(line);
        if (match) {
          started = true;
          resolve(match[1]);
        }
      }
    };
    server.child.stdout?.on("data", onData);
    server.child.stderr?.on("data", onData);
    void server.exited.then((code) => reject(new Error(`wisp-server exited (${code}) before listening:\n${recent}`)));
  });
  const timeoutMs = options.timeoutMs ?? 180_000;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`wisp-server did not listen within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const baseUrl = await Promise.race([listening, timeout]);
    return { baseUrl: baseUrl.endsWith("/v1") ? baseUrl : `${baseUrl}/v1`, process: server };
  } catch (error) {
    await server.stop();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
