// The database's URL: checked before anything connects, and shown only with its password
// replaced (in the start-up lines, errors and `wisp-server db status`).
import { StartupError } from "../../startup-error";

export interface DatabaseUrl {
  /** What the driver connects with (it may hold the password: never printed). */
  readonly connectionString: string;
  /** postgres://user:***@host:port/database: safe to print. */
  readonly redacted: string;
  readonly user: string;
}

const EXPECTED = "expected postgres://USER:PASSWORD@HOST:PORT/DATABASE";

/** Checks a --database URL; a mistake is one line that never repeats what was given (it may hold a password). */
export function parseDatabaseUrl(text: string): DatabaseUrl {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new StartupError(`--database is not a URL (${EXPECTED})`);
  }
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") {
    throw new StartupError(`--database must be a PostgreSQL URL starting with postgres:// (${EXPECTED}), not ${url.protocol}//…`);
  }
  const socketHost = url.searchParams.get("host");
  if (url.hostname === "" && !socketHost) throw new StartupError(`--database names no host (${EXPECTED})`);
  const database = decodeURIComponent(url.pathname.replace(/^\//, ""));
  if (database.includes("/")) throw new StartupError(`--database's path must be one database name (${EXPECTED})`);
  return { connectionString: text, redacted: redact(url), user: decodeURIComponent(url.username) || "(the system user)" };
}

/** The URL without its password, and without query parameters other than a socket folder. */
function redact(url: URL): string {
  const user = url.username === "" ? "" : `${url.username}${url.password === "" ? "" : ":***"}@`;
  const socketHost = url.searchParams.get("host");
  return `${url.protocol}//${user}${url.host}${url.pathname}${socketHost ? `?host=${encodeURIComponent(socketHost)}` : ""}`;
}
