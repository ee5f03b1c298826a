import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import * as vscode from "vscode";
import { delay } from "../core/base/delay";
import { expandHome } from "../core/base/home-path";
import { describeExit, type LocalServerState } from "../core/local-server/local-server-state";
import { RestartPolicy } from "../core/local-server/restart-policy";
import { noBundledServerMessage } from "../core/local-server/no-bundled-server";
import { otherServerVersionNote } from "../core/local-server/other-server-version";
import { localAddress } from "../core/net/local-address";
import type { ApiKeyStore } from "./api-key";
import { portInUse } from "./local-engine/port-probe";
import { forwardedHost } from "./local-engine/forwarded-host";
import { serverCommand, type ServerCommand } from "./local-engine/server-command";
import { createServerKey, keyAccepted, spawnFailed } from "./local-engine/server-keys";
import { ExitedEarly, ServerProcess, dataFolderHolder, healthOf, otherWispServer, waitForHolder, type Health } from "./local-engine/server-process";
import { provisionShippedModels } from "./local-engine/shipped-models";
import { StopMarker } from "./local-engine/stop-marker";
import type { Logger } from "./logger";
import type { Settings } from "./settings";
import { cutAt } from "../core/base/surrogates";

/** First start generates the default models: minutes on a slow machine. */
const healthTimeoutMs = 300_000;

export interface LocalServerPaths {
  /** The extension's folder: the bundled server (dist/server) and shipped models (models/). */
  readonly extensionPath: string;
  /** The extension's global storage: the server's keys (server/) and models (models/). */
  readonly storagePath: string;
  /** This Wisp's version: the bundled server's too. */
  readonly version: string;
}

/** What a start did: started one, or found a Wisp server already answering there. */
export type StartResult = "started" | "already-running";

/** Where a start comes from: the command shows a cancellable notification, the others only the status bar. */
type StartKind = "command" | "auto";

/** A start that was cancelled, or overtaken by a stop: nothing went wrong. */
export class StartCancelled extends Error {
  constructor() {
    super("starting the local server was cancelled.");
  }
}

/**
 * Runs the local server for `wisp.baseUrl`: the bundled one on the editor's own Node runtime (or
 * `wisp.localServer.command`), in its own process group, its output in the Wisp log. Before the
 * first start it creates an API key with the server's own CLI and keeps it in SecretStorage only.
 * A server that exits on its own is restarted a bounded number of times; disposing stops it.
 */
export class LocalServer implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<LocalServerState>();
  readonly onDidChange = this.changed.event;
  private stateValue: LocalServerState = { kind: "stopped" };
  /** The other servers' versions said so far (noteVersion). */
  private readonly versionsNoted = new Set<string>();
  private process: ServerProcess | undefined;
  /** The start under way; a stop aborts it. */
  private launching: { generation: number; abort: AbortController; promise: Promise<StartResult> } | undefined;
  private readonly restarts = new RestartPolicy();
  private restartCount = 0;
  private lastExit: string | undefined;
  /** Bumped by every stop: work begun before it gives up. */
  private generation = 0;
  private stoppedByUser = false;
  /** Where the running server listens. */
  private address: { host: string; port: number } | undefined;
  /** A stop on purpose, told to the editor's other windows (whose auto-start would undo it). */
  private readonly stopMarker: StopMarker;

  constructor(
    private readonly paths: LocalServerPaths,
    private readonly settings: Settings,
    private readonly keys: ApiKeyStore,
    private readonly log: Logger,
  ) {
    this.stopMarker = new StopMarker(join(paths.storagePath, "local-server-stopped.json"));
  }

  get state(): LocalServerState { return this.stateValue; }

  /** The bundled server's data folder (keys, usage, the web console's admin token). */
  get dataDir(): string { return join(this.paths.storagePath, "server"); }

  /** Whether Wisp: Stop Local Server was the last word, here or in another open window (auto-start then leaves it stopped). */
  get stoppedOnPurpose(): boolean { return this.stoppedByUser || this.stoppedElsewhere() !== undefined; }

  /** The pid of the extension host of another open window whose Wisp: Stop Local Server stopped the server. */
  stoppedElsewhere(): number | undefined {
    return this.stopMarker.byOtherWindow();
  }

  /** Whether the server this window runs listens where `baseUrl` points. */
  serves(baseUrl: string): boolean {
    try {
      const { host, port } = localAddress(baseUrl);
      return this.address !== undefined && this.address.host === host && this.address.port === port;
    } catch {
      return false;
    }
  }

  /**
   * Whether a server can run from here: the platform packages bundle one (dist/server), the
   * universal package does not, and then only wisp.localServer.command can.
   */
  get available(): boolean {
    return this.customCommand() !== "" || existsSync(join(this.paths.extensionPath, "dist", "server", "main.js"));
  }

  /** Starting, running or between restarts. */
  get active(): boolean { return this.launching !== undefined || this.process !== undefined || this.stateValue.kind === "restarting"; }

  /** Starts the server on the address of `wisp.baseUrl`; a second call while it starts joins the first. */
  start(kind: StartKind = "command"): Promise<StartResult> {
    if (this.launching?.generation === this.generation) return this.launching.promise;
    if (kind === "command") {
      this.stoppedByUser = false;
      this.stopMarker.clear();
      this.restarts.reset();
      this.restartCount = 0;
      this.lastExit = undefined;
    }
    if (this.process?.alive) return Promise.resolve("already-running");
    const generation = this.generation;
    const abort = new AbortController();
    // A start that a stop overtook is still winding down: after it.
    const previous = this.launching?.promise.catch(() => undefined);
    const launch = async (signal: AbortSignal, report?: (message: string) => void) => {
      await previous;
      return this.launch(generation, signal, report);
    };
    const run = kind === "command" ? withNotification((signal, report) => launch(AbortSignal.any([signal, abort.signal]), report)) : launch(abort.signal);
    const entry = {
      generation,
      abort,
      promise: run.finally(() => {
        if (this.launching === entry) this.launching = undefined;
      }),
    };
    this.launching = entry;
    return entry.promise;
  }

  /** Stops the server this window runs (and any restart on its way). */
  async stop(byUser = true): Promise<void> {
    this.generation++;
    this.launching?.abort.abort();
    if (byUser) {
      this.stoppedByUser = true;
      // The other windows use the server this one runs: they leave it stopped too.
      if (this.active) this.stopMarker.mark();
    }
    const running = this.process;
    this.process = undefined;
    this.setState({ kind: "stopped" });
    if (running === undefined) return;
    await running.stop();
    this.log.info("local server stopped");
  }

  dispose(): void {
    // Sends SIGTERM at once; the extension host may not wait for the rest.
    void this.stop(false);
    this.changed.dispose();
  }

  private async launch(generation: number, signal: AbortSignal, report: (message: string) => void = () => {}): Promise<StartResult> {
    if (signal.aborted) throw new StartCancelled();
    const { host, port } = localAddress(this.settings.value.baseUrl);
    const origin = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
    if (await portInUse(host, port)) return this.alreadyThere(host, port, origin);
    if (!this.available) throw new Error(noBundledServerMessage);
    // A restart keeps saying so until the server answers.
    if (this.stateValue.kind !== "restarting") this.setState({ kind: "starting", port });
    try {
      const command = serverCommand(this.paths.extensionPath, this.customCommand());
      const dirs = await this.prepareFolders(report);
      await this.ensureKey(command, dirs.dataDir, report);
      if (signal.aborted) throw new StartCancelled();
      const args = ["--host", host, "--port", String(port), "--models-dir", dirs.modelsDir, "--data-dir", dirs.dataDir];
      const launch = randomUUID();
      const forwarded = await this.withForwardedHost(command, origin, host);
      const launched = { ...forwarded, env: { ...forwarded.env, WISP_LAUNCH_ID: launch } };
      this.log.info(`starting ${command.label}: ${[command.command, ...command.argv(args, false)].join(" ")}`);
      const server = ServerProcess.start(launched, args, (line) => {
        this.log.info(`server: ${line}`);
        report(cutAt(line, 120));
      });
      if (!(await this.waitReady(server, command, origin, signal, launch, report))) return this.alreadyThere(host, port, origin);
      this.process = server;
      this.address = { host, port };
      await this.checkKey(command, dirs.dataDir);
      // A stop meanwhile has already ended it.
      if (signal.aborted) throw new StartCancelled();
      this.setState({ kind: "running", port, pid: server.pid ?? 0, restarts: this.restartCount, ...(this.lastExit ? { lastExit: this.lastExit } : {}) });
      this.log.info(`local server running at ${origin}/v1 (pid ${server.pid})`);
      void server.exited.then((exit) => this.onExit(server, generation, port, describeExit(exit.code, exit.signal)));
      return "started";
    } catch (error) {
      // Between restarts the restart loop says what happens next.
      if (this.stateValue.kind === "starting") {
        this.setState(error instanceof StartCancelled ? { kind: "stopped" } : { kind: "failed", message: (error as Error).message });
      }
      throw error;
    }
  }

  /**
   * The command with the editor's name allowed as Host where the browser reaches the server
   * through the editor (see forwarded-host.ts); in the environment, which a custom command's
   * older server ignores, rather than as a flag it would refuse.
   */
  private async withForwardedHost(command: ServerCommand, origin: string, host: string): Promise<ServerCommand> {
    const name = await forwardedHost(origin, host);
    if (name === undefined) return command;
    this.log.info(`the browser reaches the local server through the editor, as ${name}: allowing that Host (WISP_ALLOWED_HOSTS)`);
    return { ...command, env: { ...command.env, WISP_ALLOWED_HOSTS: [command.env.WISP_ALLOWED_HOSTS, name].filter(Boolean).join(",") } };
  }

  /**
   * A Wisp server this window did not start answers at `origin` (auto-start found the port taken):
   * says so when it runs another version than this Wisp's.
   */
  async noteOtherServer(origin: string, health?: Health): Promise<void> {
    const other = await otherWispServer(origin, undefined, health);
    if (other !== undefined) this.noteVersion(origin, other.version);
  }

  /** Once per server and version in a window: every start or settings change would say it again. */
  private noteVersion(origin: string, version: string | undefined): void {
    const note = otherServerVersionNote(origin, this.paths.version, version);
    const seen = `${origin} ${version}`;
    if (note === undefined || this.versionsNoted.has(seen)) return;
    this.versionsNoted.add(seen);
    this.log.warn(note);
    void vscode.window.showWarningMessage(`Wisp: ${note}`);
  }

  /** Something already listens on the port: a Wisp server is used as it is, anything else is an error. */
  private async alreadyThere(host: string, port: number, origin: string): Promise<StartResult> {
    const health = await healthOf(origin);
    if (health === undefined) {
      const message = portBusy(host, port);
      this.setState({ kind: "failed", message });
      throw new Error(message);
    }
    this.log.info(`a Wisp server already answers at ${origin}: using it`);
    void this.noteOtherServer(origin, health);
    if (this.stateValue.kind !== "stopped") this.setState({ kind: "stopped" });
    return "already-running";
  }

  /** True once this server answers; false when another one took the port meanwhile. */
  private async waitReady(server: ServerProcess, command: ServerCommand, origin: string, signal: AbortSignal, launch: string, report: (message: string) => void): Promise<boolean> {
    try {
      await server.waitHealthy(origin, healthTimeoutMs, signal, launch);
      return true;
    } catch (error) {
      await server.stop();
      if (server.spawnFailure !== undefined) throw new Error(spawnFailed(command, server.spawnFailure));
      if (signal.aborted) throw new StartCancelled();
      if (error instanceof ExitedEarly && /EADDRINUSE/.test(error.output)) return false;
      const holder = dataFolderHolder(error);
      if (holder === undefined) throw error;
      // Another window starting a server on this port holds the data folder while it loads: use
      // that one once it answers.
      report(`waiting for the Wisp server that uses the same data folder (pid ${holder})`);
      this.log.info(`another Wisp server (pid ${holder}) uses ${this.dataDir}: waiting for it to answer at ${origin}`);
      // One that took the folder longer ago than a start may take, and does not answer here, serves elsewhere.
      const held = await stat(join(this.dataDir, "server.lock")).then((info) => Date.now() - info.mtimeMs, () => 0);
      if (await waitForHolder(origin, holder, Math.max(0, healthTimeoutMs - held), signal)) return false;
      if (signal.aborted) throw new StartCancelled();
      throw new Error(`another Wisp server (pid ${holder}) uses this editor's server data folder (${this.dataDir}) but does not answer at ${origin}. Stop it, or set wisp.baseUrl to its address.`);
    }
  }

  /** The folder the local server serves models from: the setting, else one in the extension's storage. */
  get modelsDir(): string {
    const chosen = this.settings.value.localServer.modelsDir;
    return chosen ? expandHome(chosen, homedir()) : join(this.paths.storagePath, "models");
  }

  /** The server's data folder (its keys) and models folder, with the shipped models in place. */
  private async prepareFolders(report: (message: string) => void): Promise<{ dataDir: string; modelsDir: string }> {
    const dataDir = this.dataDir;
    await mkdir(dataDir, { recursive: true });
    const modelsDir = this.modelsDir;
    if (this.settings.value.localServer.modelsDir) return { dataDir, modelsDir };
    report("preparing the models");
    const copied = await provisionShippedModels(join(this.paths.extensionPath, "models"), modelsDir);
    for (const name of copied) this.log.info(`copied the shipped model ${name} into ${modelsDir}`);
    return { dataDir, modelsDir };
  }

  /** Before the first start: a key of its own, straight into SecretStorage (then the server never makes a default one). */
  private async ensureKey(command: ServerCommand, dataDir: string, report: (message: string) => void): Promise<void> {
    if ((await this.keys.resolve()).key !== undefined) return;
    report("creating an API key");
    await this.storeNewKey(command, dataDir);
    this.log.info("created an API key for the local server and stored it in the secret store");
  }

  /** A key set earlier for another server is of no use with this one: replace it with one it accepts. */
  private async checkKey(command: ServerCommand, dataDir: string): Promise<void> {
    const { key } = await this.keys.resolve();
    if (key === undefined || (await keyAccepted(this.settings.value.baseUrl, key))) return;
    await this.storeNewKey(command, dataDir);
    this.log.warn("the local server did not accept the API key in use: created one it accepts and stored it in the secret store");
  }

  private async storeNewKey(command: ServerCommand, dataDir: string): Promise<void> {
    const secret = await createServerKey(command, dataDir);
    this.log.setSecrets([secret], "local server");
    // Its own: a team server's key typed earlier stays the one other servers get.
    await this.keys.storeFor(this.settings.value.baseUrl, secret);
  }

  /** A server that exits unless stopped is started again, a bounded number of times. */
  private async onExit(server: ServerProcess, generation: number, port: number, how: string): Promise<void> {
    if (this.process !== server || generation !== this.generation) return;
    this.process = undefined;
    this.log.warn(`local server ${how}`);
    for (let lastExit = how; ; ) {
      const next = this.restarts.onExit(performance.now());
      if (next === undefined) {
        this.fail(`it ${lastExit}, after ${this.restarts.max} restarts within a few minutes. See Wisp: Show Logs, then Wisp: Start Local Server.`);
        return;
      }
      this.setState({ kind: "restarting", port, attempt: next.attempt, max: this.restarts.max, lastExit });
      this.log.info(`restarting the local server in ${next.delayMs} ms (attempt ${next.attempt} of ${this.restarts.max})`);
      await delay(next.delayMs);
      if (generation !== this.generation) return;
      this.lastExit = lastExit;
      this.restartCount++;
      try {
        await this.start("auto");
        return;
      } catch (error) {
        lastExit = `could not start again: ${(error as Error).message}`;
        this.log.error(`local server ${lastExit}`);
      }
    }
  }

  private fail(message: string): void {
    this.setState({ kind: "failed", message });
    this.log.error(`local server: ${message}`);
    void vscode.window.showErrorMessage(`Wisp: the local server stopped: ${message}`, "Show Logs").then((choice) => {
      if (choice === "Show Logs") this.log.show();
    });
  }

  private setState(state: LocalServerState): void {
    this.stateValue = state;
    this.changed.fire(state);
  }

  private customCommand(): string {
    return vscode.workspace.getConfiguration("wisp").get<string>("localServer.command", "").trim();
  }
}

function portBusy(host: string, port: number): string {
  return `port ${port} on ${host} is in use by another program that is not a Wisp server. Stop it, or set wisp.baseUrl to a free port (e.g. http://127.0.0.1:${port + 1}/v1).`;
}

/** Runs `work` under a cancellable progress notification. */
function withNotification<T>(work: (signal: AbortSignal, report: (message: string) => void) => Promise<T>): Promise<T> {
  return Promise.resolve(
    vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: "Wisp: starting the local server", cancellable: true },
      (progress, token) => {
        const abort = new AbortController();
        const cancel = token.onCancellationRequested(() => abort.abort());
        return work(abort.signal, (message) => progress.report({ message })).finally(() => cancel.dispose());
      },
    ),
  );
}
