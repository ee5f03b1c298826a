// Console sessions kept in this process's memory (a restart logs everyone out): the store of a
// server without a database. Secrets are looked up by their SHA-256, never compared as text.
import type { KeyInfo } from "../auth/key-records";
import { DEFAULT_SESSION_LIMITS, isPlaygroundKey, newSecret, playgroundKeyInfo, sessionSecrets, sha256, type ConsoleSession, type SessionLimits, type SessionRecords } from "./console-sessions";

export interface SessionOptions extends Partial<SessionLimits> {
  now?: () => number;
}

const hashOf = (secret: string) => sha256(secret).toString("hex");

export class SessionStore implements SessionRecords {
  private readonly sessions = new Map<string, ConsoleSession>();
  private readonly playgroundKeys = new Map<string, string>();
  private readonly loginCodes = new Map<string, number>();
  private readonly limits: SessionLimits;
  private readonly now: () => number;

  constructor(options: SessionOptions = {}) {
    const { now = Date.now, ...limits } = options;
    this.limits = { ...DEFAULT_SESSION_LIMITS, ...limits };
    this.now = now;
  }

  async create(): Promise<{ cookie: string; session: ConsoleSession }> {
    const cookie = newSecret();
    const now = this.now();
    const session: ConsoleSession = { ...sessionSecrets(cookie), created: now, lastSeen: now };
    this.sessions.set(hashOf(cookie), session);
    this.playgroundKeys.set(hashOf(session.playgroundKey), hashOf(cookie));
    while (this.sessions.size > this.limits.maxSessions) this.end(this.sessions.keys().next().value!);
    return { cookie, session };
  }

  async get(cookie: string | undefined): Promise<ConsoleSession | undefined> {
    if (!cookie) return undefined;
    const session = this.live(hashOf(cookie));
    if (session) session.lastSeen = this.now();
    return session;
  }

  async delete(cookie: string): Promise<void> {
    this.end(hashOf(cookie));
  }

  claims(key: string): boolean {
    return isPlaygroundKey(key);
  }

  async verify(key: string): Promise<KeyInfo | undefined> {
    const id = this.playgroundKeys.get(hashOf(key));
    const session = id === undefined ? undefined : this.live(id);
    return session && playgroundKeyInfo(session);
  }

  async issueLoginCode(): Promise<string> {
    const now = this.now();
    for (const [hash, expires] of this.loginCodes) if (expires <= now) this.loginCodes.delete(hash);
    const code = newSecret();
    this.loginCodes.set(hashOf(code), now + this.limits.loginCodeMs);
    return code;
  }

  async redeemLoginCode(code: unknown): Promise<boolean> {
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
    if (now - session.lastSeen <= this.limits.idleMs && now - session.created <= this.limits.maxAgeMs) return session;
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
