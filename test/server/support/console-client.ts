// The console as a browser page calls it: a session cookie from /login, the page's Origin, and
// the CSRF token from /console/api/session on state-changing requests.
export class ConsoleClient {
  cookie: string | undefined;
  csrf: string | undefined;
  playgroundKey: string | undefined;

  constructor(readonly origin: string) {}

  /** GET /login?token=...: the response, with the session cookie kept when one is set. */
  login(query: string): Promise<Response> {
    return this.open(`/login?${query}`);
  }

  /** Follows a login link (as a browser would open it), keeping the session cookie it sets. */
  async open(path: string): Promise<Response> {
    const response = await fetch(`${this.origin}${path}`, { redirect: "manual" });
    this.keepCookie(response);
    return response;
  }

  keepCookie(response: Response): void {
    const set = response.headers.get("set-cookie");
    if (set) this.cookie = set.split(";")[0];
  }

  /** Reads the session's CSRF token and playground key, as the page does on load. */
  async connect(): Promise<void> {
    const session = (await (await this.request("GET", "/console/api/session")).json()) as { csrf_token: string; playground_key: string };
    this.csrf = session.csrf_token;
    this.playgroundKey = session.playground_key;
  }

  request(method: string, path: string, options: { json?: unknown; headers?: Record<string, string> } = {}): Promise<Response> {
    const headers: Record<string, string> = { origin: this.origin, "sec-fetch-site": "same-origin" };
    if (this.cookie) headers.cookie = this.cookie;
    if (this.csrf && method !== "GET") headers["x-wisp-csrf"] = this.csrf;
    if (options.json !== undefined) headers["content-type"] = "application/json";
    return fetch(`${this.origin}${path}`, {
      method,
      redirect: "manual",
      headers: { ...headers, ...options.headers },
      body: options.json === undefined ? undefined : JSON.stringify(options.json),
    });
  }

  async json<T>(method: string, path: string, json?: unknown): Promise<T> {
    const response = await this.request(method, path, { json });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  }
}
