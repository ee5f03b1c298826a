// The web console's sessions and admin tokens, as the console's routes see them wherever they are
// kept (this process's memory and DATA/admin-token, or the database replicas share). A session's
// CSRF token and playground key are derived from its cookie, so no store keeps them: it keeps
// hashes only, and a session made on one replica is whole on every other.
import { createHash, randomBytes } from "node:crypto";
import type { KeyVerifier } from "../auth/authenticate";
import type { KeyInfo } from "../auth/key-records";

/** The key id and name that playground requests are counted under on the Usage page. */
export const PLAYGROUND_KEY: Pick<KeyInfo, "id" | "name"> = { id: "console", name: "console playground" };

const PLAYGROUND_PREFIX = "wisp-playground-";

export interface ConsoleSession {
  readonly csrfToken: string;
  readonly playgroundKey: string;
  /** ms since the epoch. */
  readonly created: number;
  lastSeen: number;
}

export interface SessionLimits {
  /** A session unused this long ends (default 12 hours). */
  idleMs: number;
  /** No session outlives this (default 7 days). */
  maxAgeMs: number;
  /** Oldest sessions end beyond this many (default 64). */
  maxSessions: number;
  /** A login code is good this long (default 2 minutes). */
  loginCodeMs: number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = { idleMs: 12 * 3_600_000, maxAgeMs: 7 * 24 * 3_600_000, maxSessions: 64, loginCodeMs: 120_000 };

/** Console sessions; their playground keys authenticate /v1 requests while they live. */
export interface SessionRecords extends KeyVerifier {
  /** Starts a session; `cookie` is its id, only ever sent in the HttpOnly cookie. */
  create(): Promise<{ cookie: string; session: ConsoleSession }>;
  /** The live session with this cookie value (and it counts as used now), or undefined. */
  get(cookie: string | undefined): Promise<ConsoleSession | undefined>;
  delete(cookie: string): Promise<void>;
  /** A one-time code that logs in through /login/<code>, for launchers that hold the admin token. */
  issueLoginCode(): Promise<string>;
  /** True once per issued, unexpired code. */
  redeemLoginCode(code: unknown): Promise<boolean>;
}

/** The console's admin tokens. */
export interface AdminTokens {
  /** Constant time in the candidate's content. */
  verify(candidate: unknown): Promise<boolean>;
}

export const sha256 = (text: string): Buffer => createHash("sha256").update(text, "utf8").digest();
export const newSecret = (prefix = ""): string => `${prefix}${randomBytes(32).toString("base64url")}`;

/** The session's own secrets, derived from its cookie (a 256-bit random value) by domain. */
export function sessionSecrets(cookie: string): Pick<ConsoleSession, "csrfToken" | "playgroundKey"> {
  return {
    csrfToken: sha256(`wisp-console-csrf:${cookie}`).toString("base64url"),
    playgroundKey: `${PLAYGROUND_PREFIX}${sha256(`wisp-console-playground:${cookie}`).toString("base64url")}`,
  };
}

export const isPlaygroundKey = (secret: string): boolean => secret.startsWith(PLAYGROUND_PREFIX);

/** How a playground request's key is counted. */
export function playgroundKeyInfo(session: Pick<ConsoleSession, "playgroundKey" | "created">): KeyInfo {
  return { ...PLAYGROUND_KEY, prefix: session.playgroundKey.slice(0, 9), created: Math.floor(session.created / 1000) };
}
