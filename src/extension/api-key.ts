import * as vscode from "vscode";
import type { KeySource } from "../core/status/describe-status";

const secretName = "wisp.apiKey";
const envName = "WISP_API_KEY";

export interface ResolvedKey {
  readonly key: string | undefined;
  readonly source: KeySource;
  /** Why the secret store could not be read (source "unreadable"). */
  readonly problem?: string;
}

/**
 * The API key lives only in SecretStorage; when none is stored, the editor host's WISP_API_KEY
 * environment variable is used. It is never written to settings.
 */
export class ApiKeyStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly subscription: vscode.Disposable;
  /** Read once until the secret changes: every completion request needs it, and a read is a round trip to the workbench. */
  private resolved: Promise<ResolvedKey> | undefined;
  readonly onDidChange = this.changed.event;

  constructor(private readonly secrets: vscode.SecretStorage, private readonly env: NodeJS.ProcessEnv = process.env) {
    this.subscription = secrets.onDidChange((e) => {
      if (e.key !== secretName) return;
      this.resolved = undefined;
      this.changed.fire();
    });
  }

  resolve(): Promise<ResolvedKey> {
    const resolved = (this.resolved ??= this.read());
    // A failed read is not kept: the keyring may be unlocked by the next request.
    void resolved.then((r) => {
      if (r.source === "unreadable" && this.resolved === resolved) this.resolved = undefined;
    });
    return resolved;
  }

  private async read(): Promise<ResolvedKey> {
    const fromEnv = this.env[envName]?.trim() || undefined;
    let stored: string | undefined;
    try {
      stored = (await this.secrets.get(secretName))?.trim();
    } catch (err) {
      // A locked or missing OS keyring rejects the read; activation and every request go on without
      // the stored key (with WISP_API_KEY if set), and the status says why.
      return { key: fromEnv, source: "unreadable", problem: err instanceof Error ? err.message : String(err) };
    }
    if (stored) return { key: stored, source: "secret" };
    if (fromEnv) return { key: fromEnv, source: "env" };
    return { key: undefined, source: "none" };
  }

  async store(key: string): Promise<void> {
    this.resolved = undefined;
    await this.secrets.store(secretName, key.trim());
    this.resolved = undefined;
  }

  async clear(): Promise<void> {
    this.resolved = undefined;
    await this.secrets.delete(secretName);
    this.resolved = undefined;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
