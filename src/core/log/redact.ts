const bearer = /(Bearer\s+)[^\s"',;]+/gi;
const keyLike = /\b(sk|wsk|key)[-_][A-Za-z0-9_-]{8,}\b/g;
/** The local server's keys: "wisp-" and 43 base64url characters (model names are far shorter). */
const wispKey = /\bwisp-[A-Za-z0-9_-]{32,}/g;
/** Login links with a token in the query (the web console's). */
const tokenParam = /([?&](?:token|access_token|key)=)[^\s&#"']+/gi;

/**
 * Removes anything that looks like a credential from a log line: Authorization values, common
 * API-key shapes, the local server's keys, login tokens in URLs, and the exact secrets currently
 * known to the extension.
 */
export function redact(line: string, secrets: readonly string[] = []): string {
  let out = line;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join("[redacted]");
  }
  return out.replace(bearer, "$1[redacted]").replace(keyLike, "[redacted]").replace(wispKey, "[redacted]").replace(tokenParam, "$1[redacted]");
}
