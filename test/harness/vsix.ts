import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { vsixFileName } from "../../scripts/package/vsix-name.mjs";
import { repoRoot } from "./toolchain";

/** Folders and files whose change makes a packaged .vsix stale. */
const sources = ["src", "package.json", "media", "README.md", "models", ".vscodeignore", "scripts/package.mjs", "scripts/package", "build/native"];

/** The packaged extension for this platform, packaged again with `npm run package` when stale or missing. */
export function ensureVsix(root = repoRoot): string {
  const vsix = join(root, vsixFileName(root));
  if (existsSync(vsix) && newestMtime(sources.map((s) => join(root, s))) <= statSync(vsix).mtimeMs) return vsix;
  const result = spawnSync("npm", ["run", "--silent", "package"], { cwd: root, stdio: ["ignore", "inherit", "inherit"] });
  if (result.status !== 0 || !existsSync(vsix)) throw new Error(`npm run package did not produce ${vsix}`);
  return vsix;
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
