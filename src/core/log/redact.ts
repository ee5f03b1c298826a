const bearer = /(Bearer\s+)[^\s"',;]+/gi;
const keyLike = /\b(sk|wsk|key)[-_][A-Za-z0-9_-]{8,}\b/g;

/**
 * Removes anything that looks like a credential from a log line: Authorization values, common
 * API-key shapes, and the exact secrets currently known to the extension.
 */
export function redact(line: string, secrets: readonly string[] = []): string {
  let out = line;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join("[redacted]");
  }
  return out.replace(bearer, "$1[redacted]").replace(keyLike, "[redacted]");
}
