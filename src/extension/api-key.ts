import * as vscode from "vscode";
import type { KeySource } from "../core/status/describe-status";

const secretName = "wisp.apiKey";
const envName = "WISP_API_KEY";

export interface ResolvedKey {
  readonly key: string | undefined;
  readonly source: KeySource;
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
    resolved.catch(() => {
      if (this.resolved === resolved) this.resolved = undefined;
    });
    return resolved;
  }

  private async read(): Promise<ResolvedKey> {
    const stored = (await this.secrets.get(secretName))?.trim();
    if (stored) return { key: stored, source: "secret" };
    const fromEnv = this.env[envName]?.trim();
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
