// A generated workspace of real source files for the benchmarks: JavaScript, TypeScript and Python
// copied from the installed packages, spread over folders as a project's would be.
import { copyFileSync, mkdirSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

function walk(dir: string, out: string[]): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== ".bin" && entry.name !== ".cache") walk(full, out);
    } else if (/\.(m?js|cjs|ts|tsx|py)$/.test(entry.name) && !/\.min\.js$/.test(entry.name)) out.push(full);
  }
}

/**
 * Copies `count` source files (each at most 256 KB, picked evenly from the sorted list of
 * `nodeModules`, so every run gets the same ones) into `root` as `pkgN/dirM/<i>-<name>`.
 * Returns their paths relative to `root` and how many candidates there were.
 */
export function copySourceFiles(nodeModules: string, root: string, count: number): { files: string[]; candidates: number } {
  const all: string[] = [];
  walk(nodeModules, all);
  all.sort();
  const sources = all.filter((f) => statSync(f).size <= 256 * 1024);
  const step = sources.length / count;
  const picked = Array.from({ length: Math.min(count, sources.length) }, (_, i) => sources[Math.floor(i * step)]!);
  const files = picked.map((source, i) => {
    const relative = path.join(`pkg${i % 50}`, `dir${i % 7}`, `${i}-${path.basename(source)}`);
    mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    copyFileSync(source, path.join(root, relative));
    return relative;
  });
  return { files, candidates: sources.length };
}
