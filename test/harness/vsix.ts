import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { hostTarget, vsixFileName } from "../../scripts/package/vsix-name.mjs";
import { repoRoot } from "./toolchain";

/** Folders and files whose change makes a packaged .vsix stale. */
const sources = ["src", "package.json", "package-lock.json", "media", "README.md", "docs", "models", ".vscodeignore", "scripts/package.mjs", "scripts/package", "build/native"];

/** The packaged extension for this platform, packaged again with `npm run package` when stale or missing. */
export function ensureVsix(root = repoRoot): string {
  return ensureVsixes([hostTarget()], root)[0]!;
}

/**
 * The packages for `targets` (VS Code targets, or "universal"), in that order: those stale or
 * missing are packaged again, all in one `npm run package` run.
 */
export function ensureVsixes(targets: string[], root = repoRoot): string[] {
  const files = targets.map((target) => join(root, vsixFileName(root, target)));
  const newest = newestMtime(sources.map((s) => join(root, s)));
  const stale = targets.filter((_, i) => !existsSync(files[i]!) || statSync(files[i]!).mtimeMs < newest);
  if (stale.length === 0) return files;
  const args = stale.flatMap((target) => (target === "universal" ? ["--universal"] : ["--target", target]));
  const result = spawnSync("npm", ["run", "--silent", "package", "--", ...args], { cwd: root, stdio: ["ignore", "inherit", "inherit"] });
  const missing = files.filter((file) => !existsSync(file));
  if (result.status !== 0 || missing.length > 0) throw new Error(`npm run package did not produce ${missing.join(", ") || "its packages"} (exit ${result.status})`);
  return files;
}

function newestMtime(paths: string[]): number {
  let newest = 0;
  for (const path of paths) {
    if (!existsSync(path)) continue;
    const stat = statSync(path);
    newest = Math.max(newest, stat.mtimeMs);
    if (stat.isDirectory()) newest = Math.max(newest, newestMtime(readdirSync(path).map((name) => join(path, name))));
  }
  return newest;
}
