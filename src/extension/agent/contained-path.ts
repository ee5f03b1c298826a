/**
 * A model-given path resolved on disk and kept inside the workspace folder: after the lexical
 * check, the deepest part of the path that exists is resolved through every symbolic link, so a
 * link that leads out (to a file or a folder) is refused, while a new file under a real folder is fine.
 * The path returned is the real one, written under the folder's path as given; `target` is that
 * file's own workspace-relative path, which differs from `relative` when a link leads there (what a
 * file is judged by, sensitive or protected, is both: a link's name says nothing of its target).
 */
import { lstat, realpath } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { relativeInside, type RelativeOptions } from "../../core/agent/workspace-path";
import { pathInside } from "../path-inside";

export async function resolveContained(
  root: string,
  relPath: string,
  options: RelativeOptions = {},
): Promise<{ readonly absolute: string; readonly relative: string; readonly target: string } | { readonly error: string }> {
  const realRoot = await realpath(root);
  // An absolute path into the workspace (from a stack trace, a compiler's message) is not "outside":
  // the model is told the relative path to give instead.
  const inside = isAbsolute(relPath) ? [root, realRoot].find((r) => pathInside(r, resolve(relPath))) : undefined;
  if (inside !== undefined) return { error: `Path ${relPath} is absolute: give it relative to the workspace folder: "${relative(inside, resolve(relPath)).split(sep).join("/") || "."}".` };
  const checked = relativeInside(relPath, options);
  if ("error" in checked) return checked;
  let existing = join(realRoot, ...checked.path.split("/").filter((s) => s !== ""));
  const missing: string[] = [];
  for (;;) {
    const real = await realpathIfPresent(existing);
    if (real === "absent") {
      if (existing === realRoot) throw new Error(`the workspace folder ${root} does not exist`);
      missing.unshift(basename(existing));
      existing = dirname(existing);
      continue;
    }
    if (real === "dangling") return { error: `Path ${relPath} is a symbolic link that leads nowhere (a missing target or a loop): give another path.` };
    if (!pathInside(realRoot, real)) return { error: `Path ${relPath} leads outside the workspace through a symbolic link: give a path inside the workspace folder.` };
    // Named under the folder as the editor names it (its documents, its watcher): a workspace opened
    // through a link (~/code -> /data/code) has its open documents under the link's path.
    const target = relative(realRoot, join(real, ...missing));
    return { absolute: join(root, target), relative: checked.path, target: target.split(sep).join("/") };
  }
}

/** The real path; "absent" when nothing is there; "dangling" for a link to nothing (writing through it would create its target) or a loop. */
async function realpathIfPresent(path: string): Promise<string | "absent" | "dangling"> {
  try {
    return await realpath(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP") return "dangling";
    if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
    const entry = await lstat(path).catch(() => undefined);
    return entry?.isSymbolicLink() ? "dangling" : "absent";
  }
}
