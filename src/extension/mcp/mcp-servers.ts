import { homedir } from "node:os";
import { sep } from "node:path";
import * as vscode from "vscode";
import { configKey, describeServer, expandConfig, inputIds, type McpInput, type McpServerEntry } from "../../core/mcp/mcp-config";
import type { Logger } from "../logger";
import { McpConfigFiles, type McpConfigSnapshot } from "./mcp-config-files";
import type { ServerTool } from "../../core/mcp/mcp-tools";
import { McpConnection } from "./mcp-connection";
import type { McpInputs } from "./mcp-inputs";

export type McpServerState =
  | { readonly kind: "stopped" }
  | { readonly kind: "starting" }
  | { readonly kind: "running"; readonly tools: number }
  | { readonly kind: "failed"; readonly message: string };

export interface McpServerView {
  readonly entry: McpServerEntry;
  readonly state: McpServerState;
  /** What it runs: the command line, or the URL. */
  readonly runs: string;
}

/** Whether a workspace-defined server may start: undefined = not asked yet. */
export type StartApproval = (entry: McpServerEntry, runs: string) => Promise<boolean>;

export interface McpServersDeps {
  readonly log: Logger;
  /** The "Wisp MCP" output channel: servers' stderr and what happened to them. */
  readonly output: Logger;
  readonly inputs: McpInputs;
  /** Per-workspace memory: which workspace servers the user allowed to start. */
  readonly memento: vscode.Memento;
  readonly version: string;
}

const allowedKey = "wisp.mcp.allowedServers";

/**
 * The MCP servers of this window: started when agent mode first needs tools (or from the MCP
 * Servers list), restarted when their configuration changes, stopped with the window. A server that
 * fails is one message (its stderr in the output channel); the others go on.
 */
export class McpServers implements vscode.Disposable {
  private readonly files = new McpConfigFiles();
  private entries: readonly McpServerEntry[] = [];
  private inputDefs: readonly McpInput[] = [];
  private readonly states = new Map<string, McpServerState>();
  private readonly connections = new Map<string, { connection: McpConnection; key: string }>();
  /** Starts under way, with the configuration each started from (reload compares it). */
  private readonly starting = new Map<string, { work: Promise<void>; key: string }>();
  /**
   * Bumped per name by stop, reload and dispose: a start begun under an older number (its card or
   * its process can take long) is outdated, and what it opened is closed rather than kept.
   */
  private readonly generations = new Map<string, number>();
  private disposed = false;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private loaded: Promise<void>;
  /** The configuration as last loaded, to tell whether it changed since. */
  private loadedConfig = "";

  constructor(private readonly deps: McpServersDeps) {
    this.loaded = this.load();
    this.files.onDidChange(() => {
      this.loaded = this.reload();
    });
  }

  /**
   * Reads the configuration again and reloads when it changed: a task started right after
   * .vscode/mcp.json was saved must see it, whether or not the file watcher has reported it yet.
   */
  async refresh(): Promise<void> {
    await this.loaded;
    const snapshot = await this.files.read();
    if (JSON.stringify(snapshot) === this.loadedConfig) return;
    this.loaded = this.reload(snapshot);
    await this.loaded;
  }

  async list(): Promise<McpServerView[]> {
    await this.loaded;
    return this.entries.map((entry) => ({ entry, state: this.state(entry.name), runs: describeServer(entry.config) }));
  }

  state(name: string): McpServerState {
    return this.states.get(name) ?? { kind: "stopped" };
  }

  /**
   * Starts every configured server not running yet (not in an untrusted workspace), asking
   * `approve` before a workspace server's first start; resolves when each is running or failed, or
   * at once when `signal` aborts (a start under way goes on, for later use; asking for inputs ends).
   */
  async startAll(approve: StartApproval, signal?: AbortSignal): Promise<void> {
    await this.loaded;
    if (!vscode.workspace.isTrusted) return;
    await untilAborted(Promise.all(this.entries.filter((e) => this.state(e.name).kind !== "running").map((e) => this.startLoaded(e.name, approve, signal))), signal);
  }

  async start(name: string, approve: StartApproval): Promise<void> {
    await this.loaded;
    return this.startLoaded(name, approve);
  }

  /** Starts a server of the entries as loaded (reload calls this: it must not wait for itself). */
  private async startLoaded(name: string, approve: StartApproval, signal?: AbortSignal): Promise<void> {
    const entry = this.entries.find((e) => e.name === name);
    if (this.disposed || !entry || this.connections.has(name)) return;
    if (!vscode.workspace.isTrusted) return this.fail(name, "not started: this workspace is not trusted (Restricted Mode).");
    const running = this.starting.get(name);
    if (running) return running.work;
    const work: Promise<void> = this.open(entry, approve, signal).finally(() => {
      if (this.starting.get(name)?.work === work) this.starting.delete(name);
    });
    this.starting.set(name, { work, key: configKey(entry) });
    return work;
  }

  async stop(name: string): Promise<void> {
    // A start under way is outdated from here: whatever it opens is closed.
    this.generations.set(name, (this.generations.get(name) ?? 0) + 1);
    this.starting.delete(name);
    const held = this.connections.get(name);
    this.connections.delete(name);
    this.setState(name, { kind: "stopped" });
    await held?.connection.close();
  }

  async restart(name: string, approve: StartApproval): Promise<void> {
    await this.loaded;
    await this.stop(name);
    await this.startLoaded(name, approve);
  }

  /**
   * The tools of the running servers, in configuration order, once the changes they announced are
   * listed; with each server's configuration as it started (what approving one of its tools is tied to).
   */
  async tools(): Promise<{ server: string; config: string; tools: readonly ServerTool[] }[]> {
    const running = this.entries.flatMap((e) => {
      const held = this.connections.get(e.name);
      return held ? [{ server: e.name, held }] : [];
    });
    return Promise.all(running.map(async ({ server, held }) => ({ server, config: held.key, tools: await held.connection.currentTools() })));
  }

  connection(name: string): McpConnection | undefined {
    return this.connections.get(name)?.connection;
  }

  private async open(entry: McpServerEntry, approve: StartApproval, signal?: AbortSignal): Promise<void> {
    const { name } = entry;
    const key = configKey(entry);
    const generation = this.generations.get(name) ?? 0;
    const outdated = () => {
      const now = this.entries.find((e) => e.name === name);
      return this.disposed || (this.generations.get(name) ?? 0) !== generation || !now || configKey(now) !== key;
    };
    if (entry.source === "workspace" && !this.allowed(name, key)) {
      const allowed = await approve(entry, describeServer(entry.config));
      // Allowed on a card that showed a command since changed: that command is neither remembered nor run.
      if (outdated()) return this.startCurrent(entry, approve, signal);
      if (!allowed) return this.fail(name, "not started: not allowed.");
      await this.deps.memento.update(allowedKey, { ...this.allowedMap(), [name]: key });
    }
    this.setState(name, { kind: "starting" });
    try {
      // A folder's server: its ${workspaceFolder} is that folder, its inputs its own; the user's setting's: the first folder.
      const folders = vscode.workspace.workspaceFolders ?? [];
      const folder = entry.workspaceFolder === undefined ? folders[0] : folders.find((f) => f.uri.fsPath === entry.workspaceFolder);
      const defs = [...this.inputDefs.filter((d) => d.workspaceFolder === entry.workspaceFolder), ...this.inputDefs.filter((d) => d.workspaceFolder !== entry.workspaceFolder)];
      const values = await this.deps.inputs.values(inputIds(entry.config), defs, folder?.uri, signal);
      if (outdated()) return this.startCurrent(entry, approve, signal);
      if (!values) {
        this.deps.output.info(`${name}: not started: the task that needed it was stopped while its inputs were asked for`);
        return this.setState(name, { kind: "stopped" });
      }
      const config = expandConfig(entry.config, {
        workspaceFolder: entry.workspaceFolder ?? folder?.uri.fsPath,
        folders: new Map(folders.map((f) => [f.name, f.uri.fsPath])),
        userHome: homedir(),
        pathSeparator: sep,
        env: process.env,
        inputs: values,
      });
      this.deps.output.info(`${name}: starting ${describeServer(entry.config)}`);
      let connection: McpConnection | undefined;
      const current = () => connection !== undefined && this.connections.get(name)?.connection === connection;
      connection = await McpConnection.open(name, config, this.deps.version, {
        output: (line) => this.deps.output.info(`${name}: ${line}`),
        closed: (reason) => {
          if (!current()) return;
          this.connections.delete(name);
          this.fail(name, reason ? `stopped: ${reason}.` : "stopped unexpectedly (it exited or closed the connection).");
        },
        toolsChanged: () => {
          if (!current()) return;
          this.deps.output.info(`${name}: its tools changed, ${connection!.tools.length} tool(s)`);
          this.setState(name, { kind: "running", tools: connection!.tools.length });
        },
      });
      if (outdated()) {
        await connection.close();
        return this.startCurrent(entry, approve, signal);
      }
      this.connections.set(name, { connection, key });
      this.deps.output.info(`${name}: running, ${connection.tools.length} tool(s)`);
      this.setState(name, { kind: "running", tools: connection.tools.length });
    } catch (error) {
      if (outdated()) return this.startCurrent(entry, approve, signal);
      this.fail(name, `failed to start: ${(error as Error).message}`);
    }
  }

  /**
   * After an outdated start: when the configuration changed (not removed, not stopped with the same
   * one), the current one starts in its place, asking first if it must; a start reload began is joined.
   */
  private async startCurrent(outdated: McpServerEntry, approve: StartApproval, signal?: AbortSignal): Promise<void> {
    const current = this.entries.find((e) => e.name === outdated.name);
    if (this.disposed || !current || configKey(current) === configKey(outdated)) return;
    return this.startLoaded(outdated.name, approve, signal);
  }

  private fail(name: string, message: string): void {
    this.deps.output.error(`${name}: ${message}`);
    this.deps.log.warn(`MCP server "${name}" ${message.split("\n")[0]} (details in the Wisp MCP output)`);
    this.setState(name, { kind: "failed", message });
  }

  private setState(name: string, state: McpServerState): void {
    this.states.set(name, state);
    this.changed.fire();
  }

  private allowedMap(): Record<string, string> {
    return this.deps.memento.get<Record<string, string>>(allowedKey) ?? {};
  }

  private allowed(name: string, key: string): boolean {
    return this.allowedMap()[name] === key;
  }

  /** Takes in the configuration: `snapshot` when the caller has just read it, else read now. */
  private async load(given?: McpConfigSnapshot): Promise<void> {
    const snapshot = given ?? (await this.files.read());
    this.loadedConfig = JSON.stringify(snapshot);
    this.entries = snapshot.servers;
    this.inputDefs = snapshot.inputs;
    for (const problem of snapshot.problems) this.deps.output.warn(problem);
    this.changed.fire();
  }

  /** A changed configuration: servers removed or changed stop; changed ones that ran start again. */
  private async reload(snapshot?: McpConfigSnapshot): Promise<void> {
    await this.load(snapshot);
    // The servers starting too: one that was still starting would otherwise go on with its old configuration.
    const held = [...[...this.connections].map(([name, { key }]) => ({ name, key })), ...[...this.starting].map(([name, { key }]) => ({ name, key }))];
    for (const { name, key } of held) {
      const entry = this.entries.find((e) => e.name === name);
      if (entry && configKey(entry) === key) continue;
      await this.stop(name);
      if (!entry) continue;
      // A workspace server whose command changed is asked for again when it is next needed.
      if (entry.source === "workspace" && !this.allowed(name, configKey(entry))) {
        this.deps.output.info(`${name}: its configuration changed; Wisp asks before starting it again`);
        continue;
      }
      await this.startLoaded(name, async () => true);
    }
  }

  dispose(): void {
    // Starts under way see this and close what they open: no server process outlives the window.
    this.disposed = true;
    for (const { connection } of this.connections.values()) void connection.close();
    this.connections.clear();
    this.files.dispose();
    this.changed.dispose();
  }
}

/** `work`, or nothing once `signal` aborts (the work goes on unwatched). */
async function untilAborted(work: Promise<unknown>, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return;
  let onAbort = () => {};
  const aborted = new Promise<void>((done) => (onAbort = done));
  signal?.addEventListener("abort", onAbort);
  try {
    await Promise.race([work, aborted]);
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
}
