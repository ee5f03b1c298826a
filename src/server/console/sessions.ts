// Console sessions, kept in memory (a restart logs everyone out). Each holds a CSRF token and a
// playground key: an API key that lives only as long as the session, so the playground calls
// /v1 exactly as any client does. Secrets are looked up by their SHA-256, never compared as text.
import { createHash, randomBytes } from "node:crypto";
import type { KeyVerifier } from "../auth/authenticate";
import type { KeyInfo } from "../auth/key-store";

/** The key id and name that playground requests are counted under on the Usage page. */
export const PLAYGROUND_KEY: Pick<KeyInfo, "id" | "name"> = { id: "console", name: "console playground" };

export interface ConsoleSession {
  readonly csrfToken: string;
  readonly playgroundKey: string;
  readonly created: number;
  lastSeen: number;
}

export interface SessionOptions {
  /** A session unused this long ends (default 12 hours). */
  idleMs?: number;
  /** No session outlives this (default 7 days). */
  maxAgeMs?: number;
  /** Oldest sessions end beyond this many (default 64). */
  maxSessions?: number;
  /** A login code is good this long (default 2 minutes). */
  loginCodeMs?: number;
  now?: () => number;
}

const hashOf = (secret: string) => createHash("sha256").update(secret, "utf8").digest("hex");
const secret = (prefix: string) => `${prefix}${randomBytes(32).toString("base64url")}`;

export class SessionStore implements KeyVerifier {
  private readonly sessions = new Map<string, ConsoleSession>();
  private readonly playgroundKeys = new Map<string, string>();
  private readonly loginCodes = new Map<string, number>();
  private readonly idleMs: number;
  private readonly maxAgeMs: number;
  private readonly maxSessions: number;
  private readonly loginCodeMs: number;
  private readonly now: () => number;

  constructor(options: SessionOptions = {}) {
    this.idleMs = options.idleMs ?? 12 * 3_600_000;
    this.maxAgeMs = options.maxAgeMs ?? 7 * 24 * 3_600_000;
    this.maxSessions = options.maxSessions ?? 64;
    this.loginCodeMs = options.loginCodeMs ?? 120_000;
    this.now = options.now ?? Date.now;
  }

  /** Starts a session; `cookie` is its id, only ever sent in the HttpOnly cookie. */
  create(): { cookie: string; session: ConsoleSession } {
    const cookie = secret("");
    const now = this.now();
    const session: ConsoleSession = { csrfToken: secret(""), playgroundKey: secret("wisp-playground-"), created: now, lastSeen: now };
    this.sessions.set(hashOf(cookie), session);
    this.playgroundKeys.set(hashOf(session.playgroundKey), hashOf(cookie));
    while (this.sessions.size > this.maxSessions) this.end(this.sessions.keys().next().value!);
    return { cookie, session };
  }

  /** The live session with this cookie value (and it counts as used now), or undefined. */
  get(cookie: string | undefined): ConsoleSession | undefined {
    if (!cookie) return undefined;
    const session = this.live(hashOf(cookie));
    if (session) session.lastSeen = this.now();
    return session;
  }

  delete(cookie: string): void {
    this.end(hashOf(cookie));
  }

  /** Playground keys authenticate /v1 requests while their session lives. */
  async verify(key: string): Promise<KeyInfo | undefined> {
    const id = this.playgroundKeys.get(hashOf(key));
    const session = id === undefined ? undefined : this.live(id);
    if (!session) return undefined;
    return { ...PLAYGROUND_KEY, prefix: session.playgroundKey.slice(0, 9), created: Math.floor(session.created / 1000) };
  }

  /** A one-time code that logs in through /login/<code>, for launchers that hold the admin token. */
  issueLoginCode(): string {
    const now = this.now();
    for (const [hash, expires] of this.loginCodes) if (expires <= now) this.loginCodes.delete(hash);
    const code = secret("");
    this.loginCodes.set(hashOf(code), now + this.loginCodeMs);
    return code;
  }

  /** True once per issued, unexpired code. */
  redeemLoginCode(code: unknown): boolean {
    if (typeof code !== "string" || code === "") return false;
    const hash = hashOf(code);
    const expires = this.loginCodes.get(hash);
    this.loginCodes.delete(hash);
    return expires !== undefined && expires > this.now();
  }

  /** The session with this id unless it has expired (then it ends now). */
  private live(id: string): ConsoleSession | undefined {
    const session = this.sessions.get(id);
    if (!session) return undefined;
    const now = this.now();
    if (now - session.lastSeen <= this.idleMs && now - session.created <= this.maxAgeMs) return session;
    this.end(id);
    return undefined;
  }

  private end(id: string): void {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    this.playgroundKeys.delete(hashOf(session.playgroundKey));
  }
}
