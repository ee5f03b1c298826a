import { spawn, type ChildProcess } from "node:child_process";
import { delay } from "../../core/base/delay";
import { processExists } from "../../core/base/process-exists";
import { launchLine, processTree, type ProcessTree } from "./platform-process";
import type { ServerCommand } from "./server-command";

export interface ProcessExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

const recentKeep = 20;

/**
 * One wisp-server child process, leader of its own process group (so that stopping it also ends
 * anything it started; on Windows its process tree), its output passed on line by line. Its stdin
 * stays an open pipe: the bundled server exits when it closes, that is when the extension host is gone.
 */
export class ServerProcess {
  readonly exited: Promise<ProcessExit>;
  private readonly recent: string[] = [];
  private stopping: Promise<void> | undefined;
  private failure: NodeJS.ErrnoException | undefined;

  private constructor(private readonly child: ChildProcess, private readonly tree: ProcessTree, onLine: (line: string) => void) {
    this.exited = new Promise((resolve) => {
      child.once("exit", (code, signal) => resolve({ code, signal }));
      // A spawn failure (no such executable) emits "error" and no "exit".
      child.once("error", (error) => {
        this.failure = error;
        resolve({ code: null, signal: null });
      });
    });
    forEachLine(child, (line) => {
      this.recent.push(line);
      if (this.recent.length > recentKeep) this.recent.shift();
      onLine(line);
    });
  }

  static start(command: ServerCommand, args: readonly string[], onLine: (line: string) => void, platform = process.platform): ServerProcess {
    const { file, args: argv, windowsVerbatimArguments, detached } = launchLine(command.command, command.argv(args, true), platform, command.custom);
    const child = spawn(file, argv, { detached, windowsVerbatimArguments, stdio: ["pipe", "pipe", "pipe"], env: command.env, windowsHide: true });
    return new ServerProcess(child, processTree(platform), onLine);
  }

  get pid(): number | undefined { return this.child.pid; }

  get alive(): boolean { return this.child.exitCode === null && this.child.signalCode === null && this.child.pid !== undefined; }

  /** The last lines it printed, for error messages. */
  recentOutput(): string { return this.recent.join("\n"); }

  /** Why it could not be started at all (ENOENT and the like), once `exited` resolved. */
  get spawnFailure(): NodeJS.ErrnoException | undefined { return this.failure; }

  /**
   * Resolves once `GET {origin}/health` answers 200 for this process: with `launch` (its
   * WISP_LAUNCH_ID), an answer naming another launch is another server's (a second window that
   * started one on the same port first). Rejects when the process exits first, after `timeoutMs`,
   * or when `signal` aborts.
   */
  async waitHealthy(origin: string, timeoutMs: number, signal?: AbortSignal, launch?: string): Promise<void> {
    let exit: ProcessExit | undefined;
    void this.exited.then((e) => (exit = e));
    // A steady clock: the time of day set back would wait as long again, set on (a laptop waking) would give up at once.
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      if (exit !== undefined) throw new ExitedEarly(exit, this.recentOutput());
      const health = await healthOf(origin, signal);
      // The port may belong to another server while this one is still loading: only ours counts.
      // An answer without a launch is an older server's, or a custom command's that drops the variable.
      if (health !== undefined && (launch === undefined || health.launch === undefined || health.launch === launch)) {
        if (exit === undefined && this.alive) return;
      }
      if (performance.now() > deadline) throw new Error(`the local server did not answer within ${Math.round(timeoutMs / 1000)} s (see Wisp: Show Logs).`);
      await delay(250, signal);
    }
  }

  /** Asks it to stop (SIGTERM to the group; stdin closed on Windows), kills its tree after `graceMs`; resolves once it has exited. */
  stop(graceMs = 3000): Promise<void> {
    this.stopping ??= (async () => {
      if (!this.alive) return;
      this.tree.terminate(this.child);
      const killed = setTimeout(() => this.tree.kill(this.child), graceMs);
      await this.exited;
      clearTimeout(killed);
      this.tree.afterExit(this.child);
    })();
    return this.stopping;
  }
}

/** The process exited before it answered: its code and last lines tell why. */
export class ExitedEarly extends Error {
  constructor(readonly exit: ProcessExit, readonly output: string) {
    // wisp-server says what went wrong in a line of its own ("wisp-server: ..."), before its usage.
    const lines = output.split("\n");
    const reason = lines.find((line) => line.startsWith("wisp-server: ")) ?? lines.at(-1) ?? "";
    super(`the local server exited before it answered (${exit.signal ?? `code ${exit.code}`})${reason ? `: ${reason}` : "."}`);
  }
}

/**
 * The pid of the server that holds the data folder, when that is why this one exited (wisp-server
 * refuses to share its data folder with a running server).
 */
export function dataFolderHolder(error: unknown): number | undefined {
  if (!(error instanceof ExitedEarly)) return undefined;
  const match = /wisp-server: another wisp-server \(pid (\d+)\) is using the data folder/.exec(error.output);
  return match ? Number(match[1]) : undefined;
}

/**
 * True once a Wisp server answers at `origin` (the holder of the data folder, when another window
 * starts it on this port); false once process `pid` is gone, after `timeoutMs`, or when `signal` aborts.
 */
export async function waitForHolder(origin: string, pid: number, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (await answersHealth(origin, signal)) return true;
    if (signal?.aborted || !processExists(pid) || performance.now() > deadline) return false;
    await delay(250, signal).catch(() => undefined);
  }
}

/** Whether a Wisp server answers `GET {origin}/health` (it needs no key). */
export async function answersHealth(origin: string, signal?: AbortSignal): Promise<boolean> {
  return (await healthOf(origin, signal)) !== undefined;
}

/**
 * The Wisp server answering at `origin`, for saying when it is not this Wisp's version: its
 * /health's version, none for a Wisp server older than that field; undefined for a server that is
 * not Wisp's, as llama.cpp's llama-server, whose /health also says {"status":"ok"}.
 */
export async function otherWispServer(origin: string, signal?: AbortSignal, answered?: Health): Promise<{ readonly version?: string } | undefined> {
  // The health answer the caller has already read, else read now.
  const health = answered ?? (await healthOf(origin, signal));
  if (health?.version !== undefined) return { version: health.version };
  // Before its version, a Wisp server told itself apart by its engines' counters (which llama-server lacks).
  if (health === undefined) return undefined;
  const counters = await jsonAt(`${origin}/metrics.json`, signal);
  return typeof counters === "object" && counters !== null ? {} : undefined;
}

/** What a Wisp server's GET /health says. */
export interface Health {
  readonly launch?: string;
  readonly version?: string;
}

/** A Wisp server's health answer at `origin` (the launch and version it names, if any); undefined when none answers. */
export async function healthOf(origin: string, signal?: AbortSignal): Promise<Health | undefined> {
  const body = (await jsonAt(`${origin}/health`, signal)) as { status?: unknown; launch?: unknown; version?: unknown } | null | undefined;
  if (body?.status !== "ok") return undefined;
  return { ...(typeof body.launch === "string" ? { launch: body.launch } : {}), ...(typeof body.version === "string" ? { version: body.version } : {}) };
}

/** The JSON a GET of `url` answers (2 s at most); undefined for an error, a failure status or no JSON. */
async function jsonAt(url: string, signal?: AbortSignal): Promise<unknown> {
  const timeout = AbortSignal.timeout(2000);
  try {
    const response = await fetch(url, { signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    return response.ok ? ((await response.json()) as unknown) : undefined;
  } catch {
    return undefined;
  }
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
