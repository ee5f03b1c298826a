// Which Host headers the local server answers: its guard against DNS rebinding. A page of
// attacker.example whose name the attacker then points at 127.0.0.1 reaches a loopback server
// as its own origin, so the browser lets it read the answers; its requests still say
// Host: attacker.example, and that is what is refused.

/**
 * `--allowed-hosts`: host names (any port), or ".example.com" for example.com and every name
 * under it; "all" turns the check off. Empty: only this machine's own names.
 */
export type AllowedHosts = readonly string[] | "all";

const ipv4 = /^\d{1,3}(\.\d{1,3}){3}$/;
const label = "[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?";
const hostNamePattern = new RegExp(`^\\.?${label}(\\.${label})*$`);

/** The entries of `--allowed-hosts a,b` (or its variable); `source` names it in a mistake. */
export function parseAllowedHosts(text: string, source = "--allowed-hosts"): AllowedHosts {
  const entries = text.split(",").map((entry) => entry.trim().toLowerCase().replace(/\.$/, "")).filter((entry) => entry !== "");
  if (entries.length === 0) throw new Error(`${source} needs host names (a,b or .example.com), or all`);
  if (entries.some((entry) => entry === "all" || entry === "*")) return "all";
  for (const entry of entries) {
    if (!hostNamePattern.test(entry)) throw new Error(`${source} takes host names without scheme or port (wisp.example.com, .example.com), got '${entry}'`);
  }
  return entries;
}

/** Whether a listen address accepts connections from this machine only. */
export function isLoopbackAddress(host: string): boolean {
  const bare = host.toLowerCase().replace(/^\[|\]$/g, "").replace(/^::ffff:/, "");
  return bare === "localhost" || bare === "::1" || (ipv4.test(bare) && bare.startsWith("127."));
}

/** The name in a Host header, lowercase, without port (IPv6 keeps its brackets); undefined if malformed. */
export function hostName(header: string): string | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]\s@/]+)(:\d*)?$/i.exec(header.trim());
  return match?.[1]!.toLowerCase().replace(/\.$/, "");
}

function matches(name: string, entry: string): boolean {
  return entry.startsWith(".") ? name === entry.slice(1) || name.endsWith(entry) : name === entry;
}

/**
 * Whether a request with this Host header is answered by a server listening on `bindHost`. On
 * loopback, or wherever `allowed` lists names, only this machine's names, IP addresses and the
 * listed names pass; a server on another address with nothing listed answers every name (a
 * balancer in front of it says which).
 */
export function hostAllowed(header: string | undefined, bindHost: string, allowed: AllowedHosts): boolean {
  if (allowed === "all") return true;
  // Browsers always send Host: a request without one (a balancer's health check) is no page's.
  if (header === undefined || header === "") return true;
  if (allowed.length === 0 && !isLoopbackAddress(bindHost)) return true;
  const name = hostName(header);
  if (name === undefined) return false;
  // An address names no DNS record that could be pointed elsewhere: the page is on that address.
  if (ipv4.test(name) || name.startsWith("[")) return true;
  // Browsers resolve *.localhost to this machine themselves; no one else can own those names.
  if (name === "localhost" || name.endsWith(".localhost")) return true;
  return allowed.some((entry) => matches(name, entry));
}

/**
 * The name to allow so that a browser sent to `externalUrl` reaches a server listening on
 * `bindHost` (an editor's port forwarding that passes the browser's Host on, as code-server's
 * /proxy/PORT/ does); undefined when the server answers that name already.
 */
export function hostToAllow(externalUrl: string, bindHost: string): string | undefined {
  let host: string;
  try {
    host = new URL(externalUrl).host;
  } catch {
    return undefined;
  }
  return hostAllowed(host, bindHost, []) ? undefined : hostName(host);
}
