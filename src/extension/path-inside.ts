import { isAbsolute, relative, sep } from "node:path";

/** Whether `path` is `root` or under it (both absolute, links already resolved). */
export function pathInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}
