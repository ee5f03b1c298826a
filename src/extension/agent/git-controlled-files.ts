/**
 * Workspace files outside `.git/` that git still reads as its own configuration or runs: a
 * file the repository's config includes (`include.path`, `includeIf.*.path`, such as a shared
 * `.gitconfig` at the root) may set `core.fsmonitor`, which the next auto-approved `git status`
 * runs, and the folder `core.hooksPath` names holds the hooks git runs on commit or checkout.
 * protected-paths.ts knows the fixed names; these come from the config, so git is asked.
 */
import { execFile } from "node:child_process";
import { stat } from "node:fs/promises";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { pathInside } from "../path-inside";

/** The keys that name such files, as git lists them (section and key lower-case). */
const keys = "^(include|includeif\\..*)\\.path$|^core\\.hookspath$";

/** Why an edit of `target` (workspace-relative, a link's target) always asks; undefined when git reads no config or hook there. */
export async function gitControlledReason(root: string, target: string): Promise<string | undefined> {
  const file = resolve(root, target);
  // Asked from the file's folder: the repository that holds it may be one nested in the workspace.
  const cwd = await nearestFolder(root, dirname(file));
  const output = await git(cwd, ["config", "-z", "--show-origin", "--get-regexp", keys]);
  if (output === undefined) return undefined;
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  // -z: ORIGIN NUL KEY LF VALUE NUL, the origin `file:PATH` relative to the folder git runs in.
  const fields = output.split("\0");
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const origin = fields[i]!.startsWith("file:") ? resolve(cwd, fields[i]!.slice("file:".length)) : undefined;
    const [key, ...rest] = fields[i + 1]!.split("\n");
    const value = rest.join("\n");
    if (origin === undefined || value === "" || value.startsWith("~")) continue;
    if (key === "core.hookspath") {
      // A relative hooks path is taken from the working tree's top, where hooks run.
      const top = isAbsolute(value) ? "" : (await git(cwd, ["rev-parse", "--show-toplevel"]))?.trim();
      if (top === undefined) continue;
      const hooks = resolve(top, value);
      if (pathInside(hooks.toLowerCase(), file.toLowerCase())) return `is in the git hooks folder (core.hooksPath ${value}): git runs these files on commit, checkout and merge`;
    } else if (same(resolve(dirname(origin), value), file)) {
      return `is git configuration that ${displayed(root, origin)} includes (${key}): git runs the commands it names (core.fsmonitor on git status)`;
    }
  }
  return undefined;
}

function displayed(root: string, file: string): string {
  const rel = relative(root, file);
  return rel.startsWith(`..${sep}`) || isAbsolute(rel) ? file : rel.split(sep).join("/");
}

/** The deepest existing folder from `folder` up to `root` (a new file's folders may not exist yet). */
async function nearestFolder(root: string, folder: string): Promise<string> {
  for (let at = folder; pathInside(root, at) && at !== root; at = dirname(at)) {
    if ((await stat(at).catch(() => undefined))?.isDirectory()) return at;
  }
  return root;
}

/** git's output, or undefined when it fails (no git, no repository, nothing set). */
function git(cwd: string, args: readonly string[]): Promise<string | undefined> {
  return new Promise((done) => {
    execFile("git", args, { cwd, timeout: 10_000, windowsHide: true, maxBuffer: 1024 * 1024 }, (error, stdout) => done(error ? undefined : stdout));
  });
}
