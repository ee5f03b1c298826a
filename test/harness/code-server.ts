import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { freePort } from "./free-port";
import { spawnGroup, type GroupProcess } from "./process-group";
import type { Toolchain } from "./toolchain";

export interface CodeServerOptions {
  toolchain: Toolchain;
  /** A temporary folder used as HOME (and XDG dirs), so nothing lands in the real home. */
  home: string;
  userDataDir: string;
  extensionsDir: string;
  /** Extra environment for code-server and its extension host (e.g. WISP_API_KEY). */
  env?: Record<string, string>;
  /** Port to listen on (default: a free one). */
  port?: number;
  /** Lets the workbench run extension tests and report their exit code to the page. */
  smokeTestDriver?: boolean;
  /** Receives code-server's output as it comes (defaults to keeping it for error messages only). */
  onOutput?: (chunk: string) => void;
  /** Keeps VS Code's workspace trust on, so that a folder not trusted opens in Restricted Mode (default: off, every folder trusted). */
  workspaceTrust?: boolean;
}

export interface CodeServer {
  url: string;
  process: GroupProcess;
  /** Last part of code-server's output, for error messages. */
  recentOutput(): string;
  stop(): Promise<void>;
}

const outputKeep = 20_000;

export function codeServerEnv(toolchain: Toolchain, home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local/share"),
    XDG_CACHE_HOME: join(home, ".cache"),
    // code-server and its extension host put IPC sockets in the temp dir: keep them in ours.
    TMPDIR: join(home, "tmp"),
    PATH: `${toolchain.nodeBin}:${process.env.PATH ?? ""}`,
    ...extra,
  };
  // A parent VS Code or Electron test runner must not leak its own settings into ours, nor the
  // developer's own WISP_API_KEY into a run that did not ask for one.
  for (const key of Object.keys(env)) if (key.startsWith("VSCODE_") || key === "ELECTRON_RUN_AS_NODE") delete env[key];
  if (!("WISP_API_KEY" in extra)) delete env.WISP_API_KEY;
  return env;
}

export async function startCodeServer(options: CodeServerOptions): Promise<CodeServer> {
  const { toolchain, home } = options;
  const port = options.port ?? (await freePort());
  const configFile = join(home, "code-server.yaml");
  mkdirSync(join(home, "tmp"), { recursive: true });
  writeFileSync(configFile, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  const args = [
    "--config", configFile,
    "--auth", "none",
    "--bind-addr", `127.0.0.1:${port}`,
    "--user-data-dir", options.userDataDir,
    "--extensions-dir", options.extensionsDir,
    "--disable-telemetry",
    "--disable-update-check",
    ...(options.workspaceTrust ? [] : ["--disable-workspace-trust"]),
    // Hides only code-server's own "Next Up" card in the Welcome page's list of walkthroughs:
    // extensions' walkthroughs open, show their steps and tick them off the same with or without it.
    "--disable-getting-started-override",
    // code-server 4.93 (the oldest editor) has no --vscode-option; its workbench reports the
    // tests' exit code and refuses dialogs in an extension test run all the same.
    ...(options.smokeTestDriver && toolchain.editor === "current" ? ["--vscode-option", "enable-smoke-test-driver"] : []),
  ];
  const server = spawnGroup(toolchain.codeServerBin, args, {
    env: codeServerEnv(toolchain, home, options.env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const collect = (chunk: Buffer): void => {
    const text = chunk.toString();
    output = (output + text).slice(-outputKeep);
    options.onOutput?.(text);
  };
  server.child.stdout?.on("data", collect);
  server.child.stderr?.on("data", collect);
  const url = `http://127.0.0.1:${port}`;
  const handle: CodeServer = { url, process: server, recentOutput: () => output, stop: () => server.stop() };
  try {
    await waitHealthy(url, server);
  } catch (error) {
    await server.stop();
    throw new Error(`${(error as Error).message}\n--- code-server output ---\n${output}`);
  }
  return handle;
}

async function waitHealthy(url: string, server: GroupProcess, timeoutMs = 60_000): Promise<void> {
  let exited: number | string | undefined;
  void server.exited.then((code) => (exited = code));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exited !== undefined) throw new Error(`code-server exited (${exited}) before it was healthy`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((done) => setTimeout(done, 200));
  }
  throw new Error(`code-server was not healthy at ${url} within ${timeoutMs} ms`);
}

/** `code-server --install-extension`: installs a packaged .vsix into an extensions folder. */
export function installVsix(toolchain: Toolchain, vsix: string, dirs: { home: string; userDataDir: string; extensionsDir: string }): void {
  const result = spawnSync(
    toolchain.codeServerBin,
    ["--install-extension", vsix, "--force", "--user-data-dir", dirs.userDataDir, "--extensions-dir", dirs.extensionsDir],
    { env: codeServerEnv(toolchain, dirs.home), encoding: "utf8", timeout: 120_000 },
  );
  if (result.status !== 0) {
    throw new Error(`installing ${vsix} failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`);
  }
}
