/**
 * Which files may hold secrets (keys, passwords, tokens) and so never go to a server unasked:
 * `wisp.sensitiveFiles` and the workspace's `.wispignore`, both in gitignore syntax.
 */
import ignore, { type Ignore } from "ignore";

/** The setting's default: environment files, private keys and certificates (SSH keys of every type ssh-keygen makes), credential stores. */
export const DEFAULT_SENSITIVE_FILES: readonly string[] = [".env*", "*.pem", "*.key", "*.p12", "id_rsa*", "id_ed25519*", "id_ecdsa*", "id_dsa*", ".npmrc", ".netrc", "*credentials*"];

/**
 * The patterns of the setting, and apart from them those of `.wispignore`. A `!pattern` in
 * `.wispignore` takes back only what `.wispignore` itself marks: the file comes with a cloned
 * repository, and a `!.env` or `!*` there must not let the user's own secrets go (to let
 * `.env.example` through, the user puts `!.env.example` in `wisp.sensitiveFiles`). As in
 * .gitignore, a pattern without a slash matches the name at any depth, and a folder's pattern
 * covers everything in it. Case-insensitive: `.ENV` is as secret as `.env`.
 */
export class SensitiveFiles {
  private readonly setting: Ignore;
  private readonly workspace: Ignore;

  constructor(patterns: readonly string[], wispignoreText = "") {
    this.setting = ignore().add(patterns);
    this.workspace = ignore().add(wispignoreText);
  }

  /** Whether a workspace-relative path (forward slashes) names a sensitive file. */
  isSensitive(relativePath: string): boolean {
    const segments = relativePath.split(/[\\/]/).filter((s) => s !== "" && s !== ".");
    // A path that climbs out of the workspace is judged by its name, as any file outside it.
    const path = segments.includes("..") ? segments.slice(segments.lastIndexOf("..") + 1).join("/") : segments.join("/");
    return path !== "" && (this.setting.ignores(path) || this.workspace.ignores(path));
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
