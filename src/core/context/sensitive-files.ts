/**
 * Which files may hold secrets (keys, passwords, tokens) and so never go to a server unasked:
 * `wisp.sensitiveFiles` and the workspace's `.wispignore`, both in gitignore syntax.
 */
import ignore, { type Ignore } from "ignore";

/** The setting's default: environment files, private keys and certificates, credential stores. */
export const DEFAULT_SENSITIVE_FILES: readonly string[] = [".env*", "*.pem", "*.key", "*.p12", "id_rsa*", ".npmrc", ".netrc", "*credentials*"];

/**
 * The patterns of the setting, then those of `.wispignore` (so a `!pattern` there can let a file
 * the setting matches go, e.g. `!.env.example`). As in .gitignore, a pattern without a slash
 * matches the name at any depth, and a folder's pattern covers everything in it. Case-insensitive:
 * `.ENV` is as secret as `.env`.
 */
export class SensitiveFiles {
  private readonly matcher: Ignore;

  constructor(patterns: readonly string[], wispignoreText = "") {
    this.matcher = ignore().add(patterns).add(wispignoreText);
  }

  /** Whether a workspace-relative path (forward slashes) names a sensitive file. */
  isSensitive(relativePath: string): boolean {
    const segments = relativePath.split(/[\\/]/).filter((s) => s !== "" && s !== ".");
    // A path that climbs out of the workspace is judged by its name, as any file outside it.
    const path = segments.includes("..") ? segments.slice(segments.lastIndexOf("..") + 1).join("/") : segments.join("/");
    return path !== "" && this.matcher.ignores(path);
  }
}

/**
 * Whether a query typed after @ names a sensitive file on purpose (not a fuzzy match that happens
 * to hit it): its name or path starts with the query. Only then does the @ list offer the file.
 */
export function namesExplicitly(query: string, path: string): boolean {
  const q = query.trim().toLowerCase();
  if (q === "") return false;
  const lower = path.toLowerCase();
  return lower.startsWith(q) || lower.slice(lower.lastIndexOf("/") + 1).startsWith(q);
}
