import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { spawnGroup, type GroupProcess } from "../../test/harness/process-group";

export interface LocalServer {
  /** OpenAI-style base URL, ending in /v1. */
  baseUrl: string;
  process: GroupProcess;
  /** The web console's login URL (with its token), once the server printed it. */
  consoleUrl(): string | undefined;
}

/** Which wisp-server runs: by default the repository's, on this Node. */
export interface ServerBinary {
  /** The script, relative to `root` (default bin/wisp-server.js). */
  serverScript?: string;
  /** The Node executable (default: this one). */
  node?: string;
}

/** Where its output goes. */
export interface OutputSink {
  write(chunk: Buffer | string): unknown;
}

const serverBin = (root: string, binary: ServerBinary): string => join(root, binary.serverScript ?? "bin/wisp-server.js");

/** `wisp-server keys create`: returns the new key's secret (the last line it prints). */
export function createApiKey(root: string, dataDir: string, name: string, binary: ServerBinary = {}): string {
  const result = spawnSync(binary.node ?? process.execPath, [serverBin(root, binary), "keys", "create", "--name", name, "--data-dir", dataDir], {
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
export async function startLocalServer(
  options: ServerBinary & {
    root: string;
    /** Working directory (default `root`). */
    cwd?: string;
    port: number;
    modelsDir: string;
    dataDir: string;
    log: OutputSink;
    onStartupLine?: (line: string) => void;
    timeoutMs?: number;
    /** More wisp-server options. */
    extraArgs?: readonly string[];
    /** Its environment (default: this process's). */
    env?: NodeJS.ProcessEnv;
  },
): Promise<LocalServer> {
  const args = [serverBin(options.root, options), "--host", "127.0.0.1", "--port", String(options.port), "--models-dir", options.modelsDir, "--data-dir", options.dataDir, ...(options.extraArgs ?? [])];
  const server = spawnGroup(options.node ?? process.execPath, args, { cwd: options.cwd ?? options.root, stdio: ["ignore", "pipe", "pipe"], env: options.env ?? process.env });
  let pending = "";
  let recent = "";
  let started = false;
  let consoleUrl: string | undefined;
  const listening = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      options.log.write(chunk);
      pending += chunk.toString();
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        consoleUrl ??= /console: (http\S+)/.exec(line)?.[1];
        if (started) continue;
        recent = `${recent}${line}\n`.slice(-2000);
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
    return { baseUrl: baseUrl.endsWith("/v1") ? baseUrl : `${baseUrl}/v1`, process: server, consoleUrl: () => consoleUrl };
  } catch (error) {
    await server.stop();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
