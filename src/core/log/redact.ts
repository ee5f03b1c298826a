const bearer = /(Bearer\s+)[^\s"',;]+/gi;
const keyLike = /\b(sk|wsk|key)[-_][A-Za-z0-9_-]{8,}\b/g;
/** wisp-server's API keys, console admin tokens and playground keys (43 base64url characters). */
export const wispSecret = /\bwisp-(?:admin-|playground-)?[A-Za-z0-9_-]{32,}/g;
/**
 * Login links and keys in URLs: `?token=...` (and access_token, key, api-key as Azure names it,
 * api_key, apikey), and `/login/<one-time code>`.
 */
const loginSecret = /([?&](?:token|access_token|key|api-key|api_key|apikey)=|\/login\/)[^\s&#"']+/gi;
/**
 * Credentials in a URL: the password of `https://alice:pw@proxy/v1`, or a lone user name, which
 * is often a token (`https://ghp_...@github.com`). A scheme is short: unbounded, a long run of its
 * characters (`--a--a…`, 100 KB) made each match attempt scan the rest of the text.
 */
const urlUserInfo = /(\b[a-z][a-z0-9+.-]{0,31}:\/\/)([^\s/?#@:"']+:)?[^\s/?#@"']+@/gi;

/**
 * Removes anything that looks like a credential from a log line: Authorization values, common
 * API-key shapes, the local server's keys and login links, credentials in URLs, and the exact secrets currently known
 * to the extension.
 */
export function redact(line: string, secrets: readonly string[] = []): string {
  let out = line;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join("[redacted]");
  }
  return out.replace(bearer, "$1[redacted]").replace(urlUserInfo, "$1$2[redacted]@").replace(loginSecret, "$1[redacted]").replace(wispSecret, "[redacted]").replace(keyLike, "[redacted]");
}
