// The training corpus: permissively licensed source text that is on this machine without any
// download (the JavaScript/TypeScript of npm dependencies under MIT/BSD/ISC/Apache licences, and
// Python's standard library), deduplicated, with a held-out split by file that training never sees.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

export interface CorpusFile {
  /** Where it was read from, relative to its root (`node_modules/...` or `python3.11/...`). */
  path: string;
  /** The npm package (name@version) or "python3.11 standard library". */
  origin: string;
  license: string;
  language: "typescript" | "javascript" | "python";
  split: "train" | "heldout";
  text: string;
}

const PERMISSIVE = /^(MIT|ISC|0BSD|BSD-2-Clause|BSD-3-Clause|Apache-2\.0|Unlicense|CC0-1\.0|BlueOak-1\.0\.0|Python-2\.0|PSF-2\.0)$/i;
const EXTENSIONS: Record<string, CorpusFile["language"]> = { ".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".py": "python" };
const MAX_FILE_BYTES = 200_000;
/** One file in this many is held out (decided by a hash of its text, so copies fall together). */
const HELDOUT_ONE_IN = 40;

/** A licence expression is permissive when every alternative named in it is (`MIT OR Apache-2.0`). */
export function permissiveLicense(expression: string): boolean {
  const names = expression.replace(/[()]/g, " ").split(/\s+(?:OR|AND)\s+|\s+/i).filter(Boolean);
  return names.length > 0 && names.every((n) => PERMISSIVE.test(n));
}

/** Generated, minified or data-like text teaches nothing about writing code. */
export function looksHandWritten(text: string): boolean {
  if (text.length < 200 || text.length > MAX_FILE_BYTES) return false;
  const lines = text.split("\n");
  if (lines.some((l) => l.length > 400)) return false;
  const average = text.length / lines.length;
  if (average > 100 || average < 8) return false;
  // Source maps, base64 blobs and tables of numbers.
  return !/sourceMappingURL=data:|^[A-Za-z0-9+/=]{200,}$/m.test(text);
}

function licenseOf(pkg: { license?: unknown; licenses?: unknown }): string {
  if (typeof pkg.license === "string") return pkg.license;
  if (pkg.license && typeof pkg.license === "object" && "type" in pkg.license) return String((pkg.license as { type: unknown }).type);
  if (Array.isArray(pkg.licenses)) return pkg.licenses.map((l: { type?: string }) => l.type ?? "").join(" OR ");
  return "";
}

function* walk(dir: string, skip: (name: string, full: string) => boolean): Generator<string> {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return;
  }
  for (const name of names) {
    const full = path.join(dir, name);
    if (skip(name, full)) continue;
    let stat;
    try {
      stat = statSync(full);
    } catch {
      continue;
    }
    if (stat.isDirectory()) yield* walk(full, skip);
    else if (stat.isFile()) yield full;
  }
}

function splitOf(text: string): CorpusFile["split"] {
  const digest = createHash("sha256").update(text).digest();
  return digest.readUInt32BE(0) % HELDOUT_ONE_IN === 0 ? "heldout" : "train";
}

/** Packages under `nodeModules` (scoped and nested too), each with its own files only. */
function* npmFiles(repoRoot: string): Generator<Omit<CorpusFile, "split" | "text"> & { full: string }> {
  const nodeModules = path.join(repoRoot, "node_modules");
  const packageDirs: string[] = [];
  const visit = (dir: string) => {
    for (const name of existsSync(dir) ? readdirSync(dir).sort() : []) {
      if (name.startsWith(".")) continue;
      const full = path.join(dir, name);
      if (name.startsWith("@")) visit(full);
      else if (existsSync(path.join(full, "package.json"))) {
        packageDirs.push(full);
        visit(path.join(full, "node_modules"));
      }
    }
  };
  visit(nodeModules);
  for (const dir of packageDirs) {
    let pkg: { name?: string; version?: string; license?: unknown; licenses?: unknown };
    try {
      pkg = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
    } catch {
      continue;
    }
    const license = licenseOf(pkg);
    if (!permissiveLicense(license)) continue;
    const origin = `${pkg.name ?? path.basename(dir)}@${pkg.version ?? "?"}`;
    // Not what npm installed: node-llama-cpp's source clone and builds of its own (its CLI makes them).
    const generated = new Set([path.join(dir, "llama", "llama.cpp"), path.join(dir, "llama", "localBuilds")]);
    const skip = (name: string, full: string) =>
      name === "node_modules" || name.startsWith(".") || /\.min\.|\.d\.[mc]?ts$|\.map$/.test(name) || generated.has(full);
    const sources = [...walk(dir, skip)].filter((full) => EXTENSIONS[path.extname(full)] && !full.endsWith(".py"));
    // Packages that ship their TypeScript also ship it compiled (CommonJS and ESM): keep the source.
    const stem = (full: string) => path.basename(full).replace(/\.[^.]+$/, "");
    const typescript = new Set(sources.filter((f) => /\.[mc]?ts$/.test(f)).map(stem));
    const all = new Set(sources);
    for (const full of sources) {
      const language = EXTENSIONS[path.extname(full)]!;
      if (language === "javascript" && typescript.has(stem(full))) continue;
      if (/\.[mc]js$/.test(full) && all.has(full.replace(/\.[mc]js$/, ".js"))) continue;
      yield { full, path: path.relative(repoRoot, full), origin, license, language };
    }
  }
}

function* pythonFiles(): Generator<Omit<CorpusFile, "split" | "text"> & { full: string }> {
  const root = "/usr/lib/python3.11";
  if (!existsSync(root)) return;
  const skip = (name: string) => name === "site-packages" || name === "dist-packages" || name === "__pycache__" || name.startsWith(".");
  for (const full of walk(root, skip)) {
    if (full.endsWith(".py")) {
      yield { full, path: path.join("python3.11", path.relative(root, full)), origin: "python3.11 standard library", license: "PSF-2.0", language: "python" };
    }
  }
}

/** Every corpus file, in a fixed order, with exact copies dropped. */
export function collectCorpus(repoRoot: string): CorpusFile[] {
  const seen = new Set<string>();
  const files: CorpusFile[] = [];
  for (const source of [npmFiles(repoRoot), pythonFiles()]) {
    for (const { full, ...file } of source) {
      let text: string;
      try {
        text = readFileSync(full, "utf8");
      } catch {
        continue;
      }
      text = text.replace(/\r\n/g, "\n");
      if (!looksHandWritten(text) || text.includes("\uFFFD")) continue;
      const digest = createHash("sha256").update(text).digest("hex");
      if (seen.has(digest)) continue;
      seen.add(digest);
      files.push({ ...file, text, split: splitOf(text) });
    }
  }
  return files;
}
