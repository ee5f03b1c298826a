// What a database error means: the database is away (requests fall back on caches and buffers, and
// it is tried again), busy (this operation falls back, nothing else changes), or a real fault; and
// at start, one line that says what to do.
import { StartupError } from "../../startup-error";
import type { DatabaseUrl } from "./database-url";

const networkCodes = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "ECONNABORTED"]);
/** SQLSTATEs of a server going away or not taking connections (class 08 is connection exceptions). */
const unavailableStates = new Set(["57P01", "57P02", "57P03", "53300", "53400"]);
// (pg-pool's "Connection terminated due to connection timeout" is a connection that could not be
// made; its "timeout exceeded when trying to connect" is a wait for a free slot of the pool: busy.)
const unavailableMessages = /Connection terminated|connection error|not queryable|Client was closed/i;
/**
 * Schema objects missing (a table, an ON CONFLICT's unique key, a function): a backup restored
 * with pg_restore --clean while the replicas run drops each and makes it again, the keys and
 * constraints only after every table's data (minutes for a large usage table). Passing, like load.
 */
const restoringStates = new Set(["42P01", "42P10", "42883"]);
/** Waits for a free connection of this replica's pool, statements cut by a timeout: load, not an outage. */
const busyMessages = /timeout exceeded when trying to connect|Query read timeout/i;

/** Whether `error` says the database cannot be reached now (rather than that a statement is wrong). */
export function isUnavailable(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown };
  if (typeof e?.code === "string" && (networkCodes.has(e.code) || e.code.startsWith("08") || unavailableStates.has(e.code))) return true;
  return typeof e?.message === "string" && unavailableMessages.test(e.message);
}

/** Data exceptions (22) and integrity violations (23): the statement's values are wrong, and will be every time. */
export const isDataError = (error: unknown): boolean => /^2[23]/.test(String((error as { code?: unknown })?.code ?? ""));

/**
 * Whether `error` says the database (or this replica's pool) is too busy to answer in time, or
 * its schema is being restored: the operation fails like one in an outage, but the database is
 * not marked down (a burst would otherwise take every replica out of the balancer at once).
 */
export function isBusy(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown };
  // 57014: canceled, by statement_timeout.
  return e?.code === "57014" || restoringStates.has(String(e?.code)) || (typeof e?.message === "string" && busyMessages.test(e.message));
}

/** Deadlocks and serialization failures: the same write goes through when tried again. */
export const isRetryable = (error: unknown): boolean => ["40P01", "40001"].includes((error as { code?: string })?.code ?? "");

/** Node's codes of a server certificate not accepted. */
const certificateCodes = new Set(["DEPTH_ZERO_SELF_SIGNED_CERT", "SELF_SIGNED_CERT_IN_CHAIN", "UNABLE_TO_VERIFY_LEAF_SIGNATURE", "UNABLE_TO_GET_ISSUER_CERT_LOCALLY", "CERT_HAS_EXPIRED", "CERT_NOT_YET_VALID", "ERR_TLS_CERT_ALTNAME_INVALID"]);

/** An error met while connecting at start, as one line naming the database (never its password). */
export function startupFailure(error: unknown, url: DatabaseUrl): Error {
  if (error instanceof StartupError) return error;
  const e = error as { code?: string; message?: string };
  const message = (e?.message ?? String(error)).split("\n")[0]!;
  const at = `the database at ${url.redacted}`;
  if (e?.code === "28P01" || e?.code === "28000") return new StartupError(`${at} refused the login of user ${url.user}: ${message}`);
  if (e?.code === "3D000") return new StartupError(`${at} does not exist: ${message} (create it first: createdb)`);
  if (/SASL|client password must be a string/.test(message)) return new StartupError(`${at} asks for a password and none was given (put it in the URL, PGPASSWORD or ~/.pgpass)`);
  if (/does not support SSL/.test(message)) return new StartupError(`${at} takes no TLS connections, which its sslmode=${url.sslmode ?? "require"} asks for (node-postgres cannot fall back to an unencrypted one as psql does with prefer): turn ssl on in the database, or write sslmode=disable`);
  if (typeof e?.code === "string" && certificateCodes.has(e.code)) {
    const what = e.code === "ERR_TLS_CERT_ALTNAME_INVALID" ? "is made out to another host name" : "is signed by no authority wisp-server trusts";
    const fix = e.code === "ERR_TLS_CERT_ALTNAME_INVALID" ? "connect by a name the certificate has, or write sslmode=verify-ca, which leaves the name unchecked" : "give that authority's certificate with sslrootcert=FILE, or write sslmode=require, which encrypts without checking it";
    return new StartupError(`${at}: its TLS certificate ${what}, so sslmode=${url.sslmode ?? "verify-full"} refuses it (${message.replace(/[:\s]+$/, "")}): ${fix}, as psql does`);
  }
  if (isUnavailable(error)) return new StartupError(`cannot reach ${at}: ${message}`);
  return new StartupError(`${at}: ${message}`);
}
