// Another platform's native packages, at the versions package-lock.json pins: the installed copy
// when npm installed that version here, else the registry's tarball, fetched once with `npm pack`
// into .cache/platform-packages/ (later runs are offline) and checked against the lockfile's
// integrity before it is unpacked.
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";

/** { version, integrity } that package-lock.json pins for `name`. */
export function lockedPackage(root, name) {
  const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8"));
  const entry = lock.packages?.[`node_modules/${name}`];
  if (entry?.version === undefined || entry.integrity === undefined) throw new Error(`package-lock.json pins no version of ${name} (add it to the dependencies' lock)`);
  return { version: entry.version, integrity: entry.integrity };
}

/**
 * The folder holding package `name` as the lockfile pins it: installed (when that copy holds the
 * path `holds`), cached, or fetched now.
 */
export function platformPackageDir(root, name, { holds = "", log = console.log } = {}) {
  const { version, integrity } = lockedPackage(root, name);
  const installed = join(root, "node_modules", name);
  const installedVersion = existsSync(join(installed, "package.json")) ? JSON.parse(readFileSync(join(installed, "package.json"), "utf8")).version : undefined;
  if (installedVersion === version && existsSync(join(installed, holds))) return installed;
  const cached = join(root, ".cache/platform-packages", `${name.replace("/", "+")}-${version}`);
  if (existsSync(join(cached, "package/package.json"))) return join(cached, "package");

  log(`fetching ${name}@${version} from the npm registry`);
  mkdirSync(join(root, ".cache/platform-packages"), { recursive: true });
  const work = mkdtempSync(`${cached}.partial-`);
  try {
    // Run away from the project, whose .npmrc is about installing, not packing.
    const [{ filename }] = JSON.parse(execFileSync("npm", ["pack", "--json", `${name}@${version}`], { cwd: work, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }));
    const tarball = join(work, filename);
    checkIntegrity(readFileSync(tarball), integrity, `${name}@${version}`);
    execFileSync("tar", ["-xzf", tarball, "-C", work, "--no-same-owner"]);
    rmSync(tarball);
    // Whole or not at all: a run stopped midway leaves only a .partial folder behind.
    renameSync(work, cached);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return join(cached, "package");
}

/** Throws unless `bytes` hash to the lockfile's integrity (sha512 as npm writes it). */
export function checkIntegrity(bytes, integrity, what) {
  const [algorithm, expected] = integrity.split(/-(.*)/s);
  const actual = createHash(algorithm).update(bytes).digest("base64");
  if (actual !== expected) throw new Error(`${what}: the registry's tarball does not match package-lock.json's integrity (${integrity}, got ${algorithm}-${actual})`);
}
