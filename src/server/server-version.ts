// The version of this server: the package's, read once at start from the package.json two folders
// up (the repository's from src/server, the package's from dist/server). Replicas of a rolling
// upgrade, and an editor finding another window's server, tell versions apart by it.
import { readFileSync } from "node:fs";

/** The package's version; "unknown" where no package.json is found beside the server. */
export function serverVersion(moduleUrl: string = import.meta.url): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", moduleUrl), "utf8")) as { name?: unknown; version?: unknown };
    return typeof pkg.version === "string" ? pkg.version : "unknown";
  } catch {
    return "unknown";
  }
}
