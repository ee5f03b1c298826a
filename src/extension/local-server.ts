import { spawn, type ChildProcess } from "node:child_process";
import * as vscode from "vscode";
import { localAddress } from "../core/net/local-address";
import type { ApiKeyStore } from "./api-key";
import type { Logger } from "./logger";
import type { Settings } from "./settings";

const startTimeoutMs = 180_000;
const stopGraceMs = 3_000;

/**
 * Starts and stops `wisp-server` (the `wisp.localServer.command` executable) as a child process
 * in its own process group, its console going to the Wisp log. When no API key is set yet, it
 * creates one with `wisp-server keys create` and keeps it in the secret store.
 */
export class LocalServer implements vscode.Disposable {
  private child: ChildProcess | undefined;

  constructor(private readonly settings: Settings, private readonly keys: ApiKeyStore, private readonly log: Logger) {}

  get running(): boolean { return this.child !== undefined; }

  async start(): Promise<void> {
    if (this.child) throw new Error("the local server is already running (Wisp: Stop Local Server first).");
    const { host, port } = localAddress(this.settings.value.baseUrl);
    const args = ["--host", host, "--port", String(port)];
    if (this.settings.value.localServer.modelsDir) args.push("--models-dir", this.settings.value.localServer.modelsDir);
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: "Wisp: starting the local server", cancellable: true },
      async (progress, token) => {
        await this.ensureKey(progress);
        await this.launch(args, progress, token);
      },
    );
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = undefined;
    await stopGroup(child);
    this.log.info("local server stopped");
  }

  dispose(): void { void this.stop(); }

  private async ensureKey(progress: vscode.Progress<{ message?: string }>): Promise<void> {
    if ((await this.keys.resolve()).key !== undefined) return;
    progress.report({ message: "creating an API key" });
    const output = await runToEnd(this.command(), ["keys", "create", "--name", "vscode"]);
    const secret = output.trim().split("\n").pop()?.trim();
    if (!secret) throw new Error("wisp-server keys create printed no key.");
    await this.keys.store(secret);
    this.log.info("created a local server API key and stored it in the secret store");
  }

  private launch(args: string[], progress: vscode.Progress<{ message?: string }>, token: vscode.CancellationToken): Promise<void> {
    const command = this.command();
    this.log.info(`starting ${command} ${args.join(" ")}`);
    const child = spawn(command, args, { detached: true, stdio: ["ignore", "pipe", "pipe"], env: process.env });
    this.child = child;
    return new Promise<void>((resolve, reject) => {
      const fail = (error: Error) => {
        cleanup();
        if (this.child === child) this.child = undefined;
        void stopGroup(child);
        reject(error);
      };
      const timer = setTimeout(() => fail(new Error(`the local server did not start within ${startTimeoutMs / 1000} s (see Wisp: Show Logs).`)), startTimeoutMs);
      const cancel = token.onCancellationRequested(() => fail(new Error("starting the local server was cancelled.")));
      const cleanup = () => {
        clearTimeout(timer);
        cancel.dispose();
      };
      forEachLine(child, (line) => {
        this.log.info(`server: ${line}`);
        progress.report({ message: line.slice(0, 120) });
        if (/listening on /.test(line)) {
          cleanup();
          resolve();
        }
      });
      child.once("error", (error: NodeJS.ErrnoException) =>
        fail(new Error(error.code === "ENOENT" ? notFound(command) : `could not start ${command}: ${error.message}`)),
      );
      child.once("exit", (code, signal) => {
        if (this.child === child) this.child = undefined;
        this.log.info(`local server exited (${signal ?? `code ${code}`})`);
        fail(new Error(`the local server exited (${signal ?? `code ${code}`}); see Wisp: Show Logs.`));
      });
    });
  }

  private command(): string {
    return vscode.workspace.getConfiguration("wisp").get<string>("localServer.command", "wisp-server").trim() || "wisp-server";
  }
}

function notFound(command: string): string {
  return `"${command}" was not found. Install the Wisp server (from a Wisp checkout: npm ci && npm link) or set wisp.localServer.command to its path.`;
}

function forEachLine(child: ChildProcess, onLine: (line: string) => void): void {
  for (const stream of [child.stdout, child.stderr]) {
    let pending = "";
    stream?.setEncoding("utf8");
    stream?.on("data", (chunk: string) => {
      const lines = (pending + chunk).split(/\r?\n/);
      pending = lines.pop() ?? "";
      for (const line of lines) if (line.trim() !== "") onLine(line);
    });
  }
}

function runToEnd(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.once("error", (error: NodeJS.ErrnoException) => reject(new Error(error.code === "ENOENT" ? notFound(command) : error.message)));
    child.once("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`${command} ${args.join(" ")} failed: ${err.trim() || `code ${code}`}`))));
  });
}

/** SIGTERM to the whole group, SIGKILL after a grace period. */
function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return Promise.resolve();
  const pid = child.pid;
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-pid, sig);
    } catch {
      // Already gone.
    }
  };
  return new Promise((resolve) => {
    const kill = setTimeout(() => signal("SIGKILL"), stopGraceMs);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    signal("SIGTERM");
  });
}
