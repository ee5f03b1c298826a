import * as vscode from "vscode";
import { keyServerOf } from "../client/base-url";
import type { KeySource } from "../core/status/describe-status";

/** The key typed last, for whatever server: what a server without a key of its own gets. */
const defaultName = "wisp.apiKey";
/** Followed by the server (keyServerOf): that server's own key. */
const serverPrefix = `${defaultName}@`;
const serverName = (baseUrl: string) => serverPrefix + keyServerOf(baseUrl);
const envName = "WISP_API_KEY";

export interface ResolvedKey {
  readonly key: string | undefined;
  readonly source: KeySource;
  /** Why the secret store could not be read (source "unreadable"). */
  readonly problem?: string;
}

/** Where the key goes: the base URL in use. */
export interface KeyServer {
  readonly value: { readonly baseUrl: string };
}

/**
 * The API key lives only in SecretStorage, never in settings. A key is kept for the server it was
 * set for (the base URL's scheme, host, port and path), and the key typed last also stands for
 * servers that have none of their own, as one key did before. So the key the local server makes
 * for itself never replaces a team server's, and switching between them keeps both; a server
 * without keys (any text will do) needs its text typed once. When no key is stored, the editor
 * host's WISP_API_KEY environment variable is used.
 */
export class ApiKeyStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly subscription: vscode.Disposable;
  /** Read once per server until a secret changes: every completion request needs it, and a read is a round trip to the workbench. */
  private readonly resolved = new Map<string, Promise<ResolvedKey>>();
  /**
   * Fires when a stored key changed. A change of the base URL, which may select another server's
   * key, is announced by the settings already: their listeners read the key again.
   */
  readonly onDidChange = this.changed.event;

  constructor(private readonly secrets: vscode.SecretStorage, private readonly servers: KeyServer, private readonly env: NodeJS.ProcessEnv = process.env) {
    this.subscription = secrets.onDidChange((e) => {
      if (e.key !== defaultName && !e.key.startsWith(serverPrefix)) return;
      this.resolved.clear();
      this.changed.fire();
    });
  }

  /** The key for `baseUrl` (the one in use when not given): its own, else the key typed last, else WISP_API_KEY. */
  resolve(baseUrl = this.servers.value.baseUrl): Promise<ResolvedKey> {
    const server = keyServerOf(baseUrl);
    const resolved = this.resolved.get(server) ?? this.read(server);
    this.resolved.set(server, resolved);
    // A failed read is not kept: the keyring may be unlocked by the next request.
    void resolved.then((r) => {
      if (r.source === "unreadable" && this.resolved.get(server) === resolved) this.resolved.delete(server);
    });
    return resolved;
  }

  /** A key the user gave for `baseUrl` (the one in use when not given): that server's, and the one servers without their own get. */
  async store(key: string, baseUrl = this.servers.value.baseUrl): Promise<void> {
    await this.write(async () => {
      await this.secrets.store(serverName(baseUrl), key.trim());
      await this.secrets.store(defaultName, key.trim());
    });
  }

  /** A key for `baseUrl` alone (the local server's, made for it): no other server gets it. */
  async storeFor(baseUrl: string, key: string): Promise<void> {
    await this.write(async () => {
      await this.secrets.store(serverName(baseUrl), key.trim());
    });
  }

  /** Forgets the key of the server in use and the one servers without their own get; other servers' own keys stay. */
  async clear(): Promise<void> {
    await this.write(async () => {
      await this.secrets.delete(serverName(this.servers.value.baseUrl));
      await this.secrets.delete(defaultName);
    });
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }

  private async write(change: () => Promise<void>): Promise<void> {
    this.resolved.clear();
    await change();
    this.resolved.clear();
  }

  private async read(server: string): Promise<ResolvedKey> {
    const fromEnv = this.env[envName]?.trim() || undefined;
    let stored: string | undefined;
    try {
      stored = (await this.secrets.get(serverPrefix + server))?.trim() || (await this.secrets.get(defaultName))?.trim();
    } catch (err) {
      // A locked or missing OS keyring rejects the read; activation and every request go on without
      // the stored key (with WISP_API_KEY if set), and the status says why.
      return { key: fromEnv, source: "unreadable", problem: err instanceof Error ? err.message : String(err) };
    }
    if (stored) return { key: stored, source: "secret" };
    if (fromEnv) return { key: fromEnv, source: "env" };
    return { key: undefined, source: "none" };
  }
}
