import * as vscode from "vscode";
import type { ModelInfo } from "../core/api/models";
import type { ConnectionState } from "../core/status/describe-status";
import { WispError } from "../client/wisp-error";
import type { ClientFactory } from "./client-factory";
import type { Logger } from "./logger";

const checkTimeoutMs = 5000;
const retryWhileDownMs = 15000;

/**
 * Knows whether the configured server answers with the configured key, by listing its models.
 * Checks on demand (start, settings or key change, a failed request) and, while the server is
 * down, again every few seconds so the status bar recovers by itself.
 */
export class ConnectionMonitor implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ConnectionState>();
  private state: ConnectionState = { kind: "checking" };
  private models: readonly ModelInfo[] = [];
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private generation = 0;
  /** The model ids behind the last change fired: a new list with the same count is news too. */
  private firedModels = "";
  readonly onDidChange = this.changed.event;

  constructor(private readonly clients: ClientFactory, private readonly log: Logger) {}

  get current(): ConnectionState { return this.state; }
  get knownModels(): readonly ModelInfo[] { return this.models; }

  /** Re-checks now; a newer check supersedes an older one still running. */
  async check(): Promise<ConnectionState> {
    const generation = ++this.generation;
    this.clearRetry();
    const client = await this.clients.create({ timeoutMs: checkTimeoutMs });
    let next: ConnectionState;
    let models: readonly ModelInfo[] | undefined;
    try {
      models = await client.listModels();
      next = { kind: "ready", modelCount: models.length };
    } catch (error) {
      next = stateForError(error);
    }
    // A newer check (another base URL or key) owns the state and the model list.
    if (generation !== this.generation) return this.state;
    if (models !== undefined) this.models = models;
    this.set(next);
    if (next.kind === "unreachable" || next.kind === "error") {
      this.retryTimer = setTimeout(() => void this.check(), retryWhileDownMs);
    }
    return next;
  }

  /**
   * A request elsewhere failed with this error kind: when it is a connection problem (no key,
   * key rejected, unreachable), show it without waiting for the next check and return true.
   */
  report(kind: string, message: string): boolean {
    const next = stateForFailure(kind, message);
    if (next.kind !== "unreachable" && next.kind !== "bad-key" && next.kind !== "no-key") return false;
    this.set(next);
    if (next.kind === "unreachable") this.retryTimer ??= setTimeout(() => void this.check(), retryWhileDownMs);
    return true;
  }

  /** A request elsewhere succeeded: a server thought down or failing answers again, so check now. */
  reportSuccess(): void {
    if (this.state.kind === "unreachable" || this.state.kind === "error") void this.check();
  }

  dispose(): void {
    this.generation++;
    this.clearRetry();
    this.changed.dispose();
  }

  private set(next: ConnectionState): void {
    const models = this.models.map((m) => m.id).join("\n");
    if (JSON.stringify(next) === JSON.stringify(this.state) && models === this.firedModels) return;
    this.state = next;
    this.firedModels = models;
    this.log.info(`connection: ${next.kind}${"message" in next ? ` (${next.message})` : ""}`);
    this.changed.fire(next);
  }

  private clearRetry(): void {
    if (this.retryTimer !== undefined) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }
}

function stateForError(error: unknown): ConnectionState {
  if (!(error instanceof WispError)) return { kind: "error", message: String(error) };
  return stateForFailure(error.kind, error.message);
}

function stateForFailure(kind: string, message: string): ConnectionState {
  switch (kind) {
    case "no-key": return { kind: "no-key" };
    case "bad-key":
    case "forbidden": return { kind: "bad-key", message };
    case "unreachable":
    case "timeout": return { kind: "unreachable", message };
    default: return { kind: "error", message };
  }
}
