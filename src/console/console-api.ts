// The console page's calls: its own JSON API (session cookie + CSRF header) and /v1 with the
// session's playground key, exactly as any API client calls it.
import { readErrorDetail } from "../core/api/error-body";
import type { UpstreamStatus } from "../core/api/upstream-status";
import type { UsageBucket } from "../core/usage/usage-rollup";

export interface ConsoleKey {
  id: string;
  name: string;
  prefix: string;
  created: number;
  revoked?: number;
  last_used: number | null;
}

export interface ModelInfo {
  id: string;
  kind?: string;
}

export interface ModelsReport {
  local: { id: string; kind: string }[];
  upstreams: UpstreamStatus[];
}

export interface UsageReport {
  now: number;
  buckets: UsageBucket[];
  key_names: Record<string, string>;
}

interface SessionInfo {
  csrf_token: string;
  playground_key: string;
  playground_key_id: string;
}

/** A failed call, with the server's own message. */
export class ConsoleError extends Error {
  constructor(message: string, readonly status: number) {
    super(message);
  }
}

async function failure(response: Response): Promise<ConsoleError> {
  const text = await response.text();
  let detail;
  try {
    detail = readErrorDetail(JSON.parse(text));
  } catch {
    detail = undefined;
  }
  return new ConsoleError(detail?.message ?? `${response.status} ${response.statusText}`, response.status);
}

export class ConsoleApi {
  /**
   * The API root the playground calls and its code shows: beside the page, which may sit behind
   * a path prefix (an editor's port forwarding), so every address here is relative to it.
   */
  readonly baseUrl = new URL("v1", location.href).href;

  private constructor(private readonly session: SessionInfo) {}

  static async connect(): Promise<ConsoleApi> {
    const response = await fetch("console/api/session", { credentials: "same-origin" });
    if (!response.ok) throw await failure(response);
    return new ConsoleApi((await response.json()) as SessionInfo);
  }

  get playgroundKeyId(): string {
    return this.session.playground_key_id;
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { "x-wisp-csrf": this.session.csrf_token };
    if (body !== undefined) headers["content-type"] = "application/json";
    const response = await fetch(path, { method, headers, credentials: "same-origin", body: body === undefined ? undefined : JSON.stringify(body) });
    if (response.status === 401) {
      // The session ended (restart, logout elsewhere, idle): the login page says so, and brings
      // the browser back to this view.
      const view = location.hash.slice(1);
      location.assign(`login?ended=1${view ? `&view=${encodeURIComponent(view)}` : ""}`);
    }
    if (!response.ok) throw await failure(response);
    return (response.status === 204 ? undefined : await response.json()) as T;
  }

  async keys(): Promise<ConsoleKey[]> {
    return (await this.call<{ keys: ConsoleKey[] }>("GET", "console/api/keys")).keys;
  }

  createKey(name: string): Promise<{ key: ConsoleKey; secret: string }> {
    return this.call("POST", "console/api/keys", { name });
  }

  async revokeKey(id: string): Promise<ConsoleKey> {
    return (await this.call<{ key: ConsoleKey }>("POST", `console/api/keys/${encodeURIComponent(id)}/revoke`)).key;
  }

  usage(): Promise<UsageReport> {
    return this.call("GET", "console/api/usage");
  }

  modelStatus(): Promise<ModelsReport> {
    return this.call("GET", "console/api/models");
  }

  logout(): Promise<void> {
    return this.call("POST", "console/api/logout");
  }

  async models(): Promise<ModelInfo[]> {
    const response = await this.v1("GET", "/models");
    if (!response.ok) throw await failure(response);
    return ((await response.json()) as { data: ModelInfo[] }).data;
  }

  /** A /v1 request with the playground key; the caller reads (or streams) the response. */
  async v1(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<Response> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.session.playground_key}` };
    if (body !== undefined) headers["content-type"] = "application/json";
    const response = await fetch(`${this.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal });
    // The playground key lives as long as the session: refused, it most likely means the session
    // ended (a restart, idle hours, Log out elsewhere), which call() takes to the login page.
    if (response.status === 401) await this.call("GET", "console/api/session").catch(() => undefined);
    return response;
  }

  /** The error of a failed /v1 response. */
  static failure = failure;
}
