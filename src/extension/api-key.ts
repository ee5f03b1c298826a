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
  readonly onDidChange = this.changed.event;

  constructor(private readonly secrets: vscode.SecretStorage, private readonly env: NodeJS.ProcessEnv = process.env) {
    this.subscription = secrets.onDidChange((e) => {
      if (e.key === secretName) this.changed.fire();
    });
  }

  async resolve(): Promise<ResolvedKey> {
    const stored = (await this.secrets.get(secretName))?.trim();
    if (stored) return { key: stored, source: "secret" };
    const fromEnv = this.env[envName]?.trim();
    if (fromEnv) return { key: fromEnv, source: "env" };
    return { key: undefined, source: "none" };
  }

  async store(key: string): Promise<void> { await this.secrets.store(secretName, key.trim()); }

  async clear(): Promise<void> { await this.secrets.delete(secretName); }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
