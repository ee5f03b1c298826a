// Console sessions kept in this process's memory (a restart logs everyone out): the store of a
// server without a database. Secrets are looked up by their SHA-256, never compared as text.
import type { KeyInfo } from "../auth/key-records";
import { DEFAULT_SESSION_LIMITS, isPlaygroundKey, newSecret, playgroundKeyInfo, sessionSecrets, sha256, type ConsoleSession, type SessionLimits, type SessionRecords } from "./console-sessions";

export interface SessionOptions extends Partial<SessionLimits> {
  /** The time of day (what sessions show as created and last seen). */
  now?: () => number;
  /** A steady clock (performance.now): no setting of the time of day moves it. */
  steadyNow?: () => number;
}

/** When something happened on both clocks: the time of day, set back, would make a lifetime last as long again. */
interface Moment {
  wall: number;
  steady: number;
}

const hashOf = (secret: string) => sha256(secret).toString("hex");

export class SessionStore implements SessionRecords {
  private readonly sessions = new Map<string, ConsoleSession>();
  private readonly playgroundKeys = new Map<string, string>();
  /** Each session's start and last use on both clocks, by its id. */
  private readonly times = new Map<string, { created: Moment; lastSeen: Moment }>();
  /** Each unredeemed code's hash and when it was issued. */
  private readonly loginCodes = new Map<string, Moment>();
  private readonly limits: SessionLimits;
  private readonly now: () => number;
  private readonly steadyNow: () => number;

  constructor(options: SessionOptions = {}) {
    const { now = Date.now, steadyNow = () => performance.now(), ...limits } = options;
    this.limits = { ...DEFAULT_SESSION_LIMITS, ...limits };
    this.now = now;
    this.steadyNow = steadyNow;
  }

  private moment(): Moment {
    return { wall: this.now(), steady: this.steadyNow() };
  }

  /** How long since `then`: the longer of the two clocks (the time of day also counts a sleep, which the steady clock may not). */
  private since(then: Moment, now = this.moment()): number {
    return Math.max(now.wall - then.wall, now.steady - then.steady);
  }

  async create(): Promise<{ cookie: string; session: ConsoleSession }> {
    const cookie = newSecret();
    const now = this.moment();
    const session: ConsoleSession = { ...sessionSecrets(cookie), created: now.wall, lastSeen: now.wall };
    this.sessions.set(hashOf(cookie), session);
    this.times.set(hashOf(cookie), { created: now, lastSeen: now });
    this.playgroundKeys.set(hashOf(session.playgroundKey), hashOf(cookie));
    while (this.sessions.size > this.limits.maxSessions) this.end(this.sessions.keys().next().value!);
    return { cookie, session };
  }

  async get(cookie: string | undefined): Promise<ConsoleSession | undefined> {
    if (!cookie) return undefined;
    const id = hashOf(cookie);
    const session = this.live(id);
    const times = this.times.get(id);
    if (session && times) {
      times.lastSeen = this.moment();
      session.lastSeen = times.lastSeen.wall;
    }
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
    const now = this.moment();
    for (const [hash, issued] of this.loginCodes) if (this.since(issued, now) >= this.limits.loginCodeMs) this.loginCodes.delete(hash);
    const code = newSecret();
    this.loginCodes.set(hashOf(code), now);
    return code;
  }

  async redeemLoginCode(code: unknown): Promise<boolean> {
    if (typeof code !== "string" || code === "") return false;
    const hash = hashOf(code);
    const issued = this.loginCodes.get(hash);
    this.loginCodes.delete(hash);
    return issued !== undefined && this.since(issued) < this.limits.loginCodeMs;
  }

  /** The session with this id unless it has expired (then it ends now). */
  private live(id: string): ConsoleSession | undefined {
    const session = this.sessions.get(id);
    const times = this.times.get(id);
    if (!session || !times) return undefined;
    const now = this.moment();
    if (this.since(times.lastSeen, now) <= this.limits.idleMs && this.since(times.created, now) <= this.limits.maxAgeMs) return session;
    this.end(id);
    return undefined;
  }

  private end(id: string): void {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    this.times.delete(id);
    this.playgroundKeys.delete(hashOf(session.playgroundKey));
  }
}
