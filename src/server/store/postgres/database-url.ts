// The database's URL: checked before anything connects, and shown only with its password
// replaced (in the start-up lines, errors and `wisp-server db status`).
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { StartupError } from "../../startup-error";

export interface DatabaseUrl {
  /** What the driver connects with (it may hold the password: never printed). */
  readonly connectionString: string;
  /** postgres://user:***@host:port/database: safe to print. */
  readonly redacted: string;
  readonly user: string;
  /** libpq's sslmode this connects with (the URL's, else PGSSLMODE's); undefined: no TLS. */
  readonly sslmode?: string;
}

const EXPECTED = "expected postgres://USER:PASSWORD@HOST:PORT/DATABASE";
/** Generated passwords often hold these: unencoded, they end the password early (psql needs them encoded too). */
const ENCODED = "a password with @ : / ? # % or a space in it is written percent-encoded: %40 %3A %2F %3F %23 %25 %20";
/** libpq's values of sslmode (psql's), and node-postgres' own no-verify. */
const SSL_MODES = ["disable", "allow", "prefer", "require", "verify-ca", "verify-full", "no-verify"];

/** Checks a --database URL; a mistake is one line that never repeats what was given (it may hold a password). */
export function parseDatabaseUrl(text: string, env: NodeJS.ProcessEnv = process.env): DatabaseUrl {
  if (severalHosts(text)) {
    throw new StartupError("--database names several hosts (libpq's failover list, HOST1,HOST2), which node-postgres does not take: give one address that always reaches the primary (a floating address, a DNS name the cluster manager moves, or a pooler or HAProxy in front of the cluster)");
  }
  const { url, hostless } = readUrl(text);
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") {
    throw new StartupError(`--database must be a PostgreSQL URL starting with postgres:// (${EXPECTED}), not ${url.protocol}//…`);
  }
  // A # is never part of one: it is a password's, cut there (postgres://wisp:5432#x@db/wisp reads as host wisp, port 5432).
  if (url.hash !== "") throw new StartupError(`--database has a # in it (${EXPECTED}; ${ENCODED})`);
  // With no host in the URL, node-postgres takes PGHOST's, as psql does (psql's default socket folder it does not know).
  if (hostless && !url.searchParams.get("host") && !env.PGHOST) {
    throw new StartupError(`--database names no host (${EXPECTED}; a socket's folder as ?host=/run/postgresql, or PGHOST)`);
  }
  const database = decodeURIComponent(url.pathname.replace(/^\//, ""));
  if (database.includes("/")) throw new StartupError(`--database's path must be one database name (${EXPECTED}; ${ENCODED})`);
  const tls = libpqTls(url, env);
  return { connectionString: tls.extra === "" ? text : withParams(text, tls.extra), redacted: redact(url, hostless), user: decodeURIComponent(url.username) || "(the system user)", ...(tls.mode ? { sslmode: tls.mode } : {}) };
}

/**
 * What the URL's query must add for node-postgres to read sslmode as psql (libpq) does: by itself
 * it takes prefer, require and verify-ca for verify-full (a self-signed certificate psql accepts
 * with require is refused) and warns so at every start; nor does it read PGSSLMODE,
 * PGSSLROOTCERT or ~/.postgresql/root.crt as libpq does.
 */
function libpqTls(url: URL, env: NodeJS.ProcessEnv): { mode: string | undefined; extra: string } {
  const given = url.searchParams.get("sslmode");
  const mode = given ?? (env.PGSSLMODE || undefined);
  if (mode === undefined || url.searchParams.has("uselibpqcompat")) return { mode, extra: "" };
  if (!SSL_MODES.includes(mode)) throw new StartupError(`--database's sslmode must be one of ${SSL_MODES.join(", ")}, not ${mode}`);
  if (mode === "no-verify") return { mode, extra: given ? "" : "sslmode=no-verify" };
  const params = new URLSearchParams({ uselibpqcompat: "true" });
  // libpq's allow tries without TLS first; node-postgres falls back neither way, and takes the
  // last sslmode given: allow is prefer's encryption, unchecked.
  if (!given || mode === "allow") params.set("sslmode", mode === "allow" ? "prefer" : mode);
  const rootCert = url.searchParams.get("sslrootcert") ?? (env.PGSSLROOTCERT || undefined);
  if (rootCert === undefined && mode.startsWith("verify")) {
    const fallback = path.join(env.HOME || homedir(), ".postgresql", "root.crt");
    if (existsSync(fallback)) params.set("sslrootcert", fallback);
    else if (mode === "verify-ca") throw new StartupError(`--database's sslmode=verify-ca needs the certificate of the authority that signed the database's: sslrootcert=FILE (${fallback} is not there)`);
  } else if (rootCert !== undefined && url.searchParams.get("sslrootcert") === null) {
    params.set("sslrootcert", rootCert);
  }
  return { mode, extra: params.toString() };
}

/** The URL as given with `extra` added to its query (kept as given: the driver decodes it itself). */
function withParams(text: string, extra: string): string {
  const hash = text.indexOf("#");
  const [base, fragment] = hash === -1 ? [text, ""] : [text.slice(0, hash), text.slice(hash)];
  return `${base}${base.includes("?") ? "&" : "?"}${extra}${fragment}`;
}

/** Whether the URL's host part is a list (postgres://u:p@db1:5432,db2:5432/wisp), as psql takes for failover. */
function severalHosts(text: string): boolean {
  const authority = /^[a-z][\w+.-]*:\/\/([^/?#]*)/i.exec(text)?.[1] ?? "";
  return authority.slice(authority.lastIndexOf("@") + 1).includes(",");
}

/**
 * The URL read, and whether it names no host: postgresql://wisp@/wisp?host=/run/postgresql (libpq's
 * socket form with a user, which WHATWG URLs refuse) is read as node-postgres reads it.
 */
function readUrl(text: string): { url: URL; hostless: boolean } {
  try {
    const url = new URL(text);
    return { url, hostless: url.hostname === "" };
  } catch {
    try {
      return { url: new URL(text.replace("@/", "@no-host/")), hostless: true };
    } catch {
      throw new StartupError(`--database is not a URL (${EXPECTED}; ${ENCODED})`);
    }
  }
}

/** The URL without its password, and without query parameters other than a socket folder. */
function redact(url: URL, hostless: boolean): string {
  const user = url.username === "" ? "" : `${url.username}${url.password === "" ? "" : ":***"}@`;
  const socketHost = url.searchParams.get("host");
  return `${url.protocol}//${user}${hostless ? "" : url.host}${url.pathname}${socketHost ? `?host=${encodeURIComponent(socketHost)}` : ""}`;
}
