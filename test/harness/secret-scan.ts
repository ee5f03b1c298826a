import { lstatSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The local server's API keys: "wisp-" and 43 base64url characters (32 random bytes). */
export const serverKeyPattern = /wisp-[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/;

export interface SecretFound {
  file: string;
  match: string;
}

/**
 * Every file under `roots` (recursively, links not followed) whose bytes contain a match of
 * `pattern`, or one of `needles`: where a key would be if it leaked into settings, logs or files.
 */
export function findSecrets(roots: readonly string[], options: { pattern?: RegExp; needles?: readonly string[]; maxBytes?: number }): SecretFound[] {
  const found: SecretFound[] = [];
  const maxBytes = options.maxBytes ?? 256 * 1024 * 1024;
  const visit = (path: string): void => {
    let info;
    try {
      info = lstatSync(path);
    } catch {
      return; // gone meanwhile (logs rotate, sockets close)
    }
    if (info.isDirectory()) {
      for (const name of readdirSync(path)) visit(join(path, name));
      return;
    }
    if (!info.isFile() || info.size > maxBytes) return;
    const text = readFileSync(path, "latin1");
    const match = options.pattern?.exec(text)?.[0] ?? options.needles?.find((needle) => needle !== "" && text.includes(needle));
    if (match !== undefined) found.push({ file: path, match });
  };
  for (const root of roots) visit(root);
  return found;
}
