// The training corpus: permissively licensed source text, the JavaScript/TypeScript of npm
// dependencies under MIT/BSD/ISC/Apache licences and Python's standard library (on this machine
// without any download), and the code of the repositories in training-repos.ts (fetched by
// fetch-repos.ts): TypeScript, JavaScript and Python, and the languages written beside them (Go,
// Rust, Java, C#, shell, SQL, HTML, CSS, Markdown). Exact and near-duplicates dropped, with a
// held-out split by file that training never sees.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { SeenLines } from "./line-hashes";
import { repoFiles, repoGitDir, TRAINING_REPOS } from "./training-repos";

export interface CorpusFile {
  /** Where it was read from, relative to its root (`node_modules/...` or `python3.11/...`). */
  path: string;
  /** The npm package (name@version), "python3.11 standard library" or the repository (owner/name@commit). */
  origin: string;
  /** Application code (a training repository), as opposed to libraries and the standard library. */
  application: boolean;
  license: string;
  language: Language;
  split: "train" | "heldout";
  text: string;
}

const PERMISSIVE = /^(MIT|ISC|0BSD|BSD-2-Clause|BSD-3-Clause|Apache-2\.0|Unlicense|CC0-1\.0|BlueOak-1\.0\.0|Python-2\.0|PSF-2\.0)$/i;
export const LANGUAGES = ["typescript", "javascript", "python", "go", "rust", "java", "csharp", "shell", "sql", "html", "css", "markdown"] as const;
export type Language = (typeof LANGUAGES)[number];
export const EXTENSIONS: Record<string, Language> = {
  ".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "typescript",
  ".js": "javascript", ".jsx": "javascript", ".mjs": "javascript", ".cjs": "javascript",
  ".py": "python", ".go": "go", ".rs": "rust", ".java": "java", ".cs": "csharp",
  ".sh": "shell", ".bash": "shell", ".zsh": "shell", ".sql": "sql", ".html": "html", ".htm": "html",
  ".css": "css", ".scss": "css", ".less": "css", ".md": "markdown", ".markdown": "markdown",
};
/** Prose more than code: written on long lines, and in any human language. */
const PROSE = new Set<Language>(["markdown", "html"]);
export const MAX_FILE_BYTES = 200_000;
/** One file in this many is held out (decided by a hash of its text, so copies fall together). */
const HELDOUT_ONE_IN = 40;
/** A file whose lines are more than this share another kept file's is a near-duplicate of it. */
const NEAR_DUPLICATE_SHARE = 0.5;

/** A licence expression is permissive when every alternative named in it is (`MIT OR Apache-2.0`). */
export function permissiveLicense(expression: string): boolean {
  const names = expression.replace(/[()]/g, " ").split(/\s+(?:OR|AND)\s+|\s+/i).filter(Boolean);
  return names.length > 0 && names.every((n) => PERMISSIVE.test(n));
}

/**
 * Generated, minified or data-like text teaches nothing about writing code. Prose (Markdown, HTML)
 * may run a paragraph on one line, and must be mostly English: a translated page teaches words
 * the editor's users do not complete.
 */
export function looksHandWritten(text: string, language?: Language): boolean {
  if (text.length < 200 || text.length > MAX_FILE_BYTES) return false;
  const lines = text.split("\n");
  const prose = language !== undefined && PROSE.has(language);
  if (lines.some((l) => l.length > (prose ? 2000 : 400))) return false;
  const average = text.length / lines.length;
  if (average > (prose ? 300 : 100) || average < 8) return false;
  if (prose && (text.match(/[^\x00-\x7f]/g)?.length ?? 0) > text.length * 0.02) return false;
  // Source maps, base64 blobs and tables of numbers.
  if (/sourceMappingURL=data:|^[A-Za-z0-9+/=]{200,}$/m.test(text)) return false;
  return !mostlyData(lines);
}

// A number takes all its digits, letters and dots: were it free to end anywhere among them, a line
// of run-together numbers (an SVG path's `2.717-.189.906-.377`) could be split so many ways that
// the test would not end.
const LITERAL = String.raw`(?:"[^"]*"|'[^']*'|-?\d[\w.]*(?![\w.])|true|false|null)`;
/** A line that only lists literals (`"a", "b",`, `0x1f, 2,`) or maps a key to one (`foo: "bar",`). */
const DATA_LINE = new RegExp(String.raw`^(?:(?:${LITERAL}\s*[,:]?\s*)+|[\w$"']+\s*:\s*${LITERAL}\s*,?)[,;]?$`);

/** Generated tables (keyword lists, character maps, translations): most lines are data, not code. */
function mostlyData(lines: string[]): boolean {
  const code = lines.map((l) => l.trim()).filter((l) => l.length > 0);
  return code.length >= 40 && code.filter((l) => DATA_LINE.test(l)).length > code.length * 0.6;
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

/** A corpus file before it is read: its text comes from disk or from a repository's objects. */
type Located = Omit<CorpusFile, "split" | "text"> & { read: () => string };

/** Packages under `nodeModules` (scoped and nested too), each with its own files only. */
function* npmFiles(repoRoot: string): Generator<Located> {
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
    const sources = [...walk(dir, skip)].filter((full) => EXTENSIONS[path.extname(full)] === "typescript" || EXTENSIONS[path.extname(full)] === "javascript");
    // Packages that ship their TypeScript also ship it compiled (CommonJS and ESM): keep the source.
    const stem = (full: string) => path.basename(full).replace(/\.[^.]+$/, "");
    const typescript = new Set(sources.filter((f) => /\.[mc]?ts$/.test(f)).map(stem));
    const all = new Set(sources);
    for (const full of sources) {
      const language = EXTENSIONS[path.extname(full)]!;
      if (language === "javascript" && typescript.has(stem(full))) continue;
      if (/\.[mc]js$/.test(full) && all.has(full.replace(/\.[mc]js$/, ".js"))) continue;
      yield { path: path.relative(repoRoot, full), origin, license, language, application: false, read: () => readFileSync(full, "utf8") };
    }
  }
}

function* pythonFiles(): Generator<Located> {
  const root = "/usr/lib/python3.11";
  if (!existsSync(root)) return;
  const skip = (name: string) => name === "site-packages" || name === "dist-packages" || name === "__pycache__" || name.startsWith(".");
  for (const full of walk(root, skip)) {
    if (full.endsWith(".py")) {
      yield { path: path.join("python3.11", path.relative(root, full)), origin: "python3.11 standard library", license: "PSF-2.0", language: "python", application: false, read: () => readFileSync(full, "utf8") };
    }
  }
}

/** A file's language by its extension, or for a script without one (`bin/n`, `libexec/rbenv-init`) by its `#!` line. */
export function languageOf(file: string, text: string): Language | undefined {
  const byExtension = EXTENSIONS[path.extname(file)];
  if (byExtension || path.basename(file).includes(".")) return byExtension;
  return /^#!\s*\S*\/(?:env\s+)?(?:ba|z|da)?sh\b/.test(text) ? "shell" : undefined;
}

function* applicationFiles(reposDir: string): Generator<Located> {
  const wanted = (p: string, size: number) => (EXTENSIONS[path.extname(p)] !== undefined || !path.basename(p).includes(".")) && size <= MAX_FILE_BYTES;
  for (const repo of TRAINING_REPOS) {
    for (const file of repoFiles(repoGitDir(reposDir, repo), repo, wanted)) {
      const language = languageOf(file.path, file.text);
      if (!language) continue;
      const origin = `${repo.name}@${repo.commit.slice(0, 12)}`;
      yield { path: `github.com/${repo.name}/${file.path}`, origin, license: repo.license, language, application: !repo.library, read: () => file.text };
    }
  }
}

/** Where the corpus comes from: npm packages, Python's standard library, the pinned repositories. */
export const CORPUS_SOURCES = ["npm", "python", "repos"] as const;
export type CorpusSource = (typeof CORPUS_SOURCES)[number];

/**
 * Every corpus file, in a fixed order, with exact copies and near-duplicates dropped (the first
 * one seen is kept). Application code comes from `reposDir` (what fetch-repos.ts fetched; missing
 * repositories are left out). `sources` keeps some of them only (a small corpus for rehearsals).
 */
export function collectCorpus(repoRoot: string, reposDir = path.join(repoRoot, ".cache/train/repos"), sources: readonly CorpusSource[] = CORPUS_SOURCES): CorpusFile[] {
  const seen = new Set<string>();
  const lines = new SeenLines();
  const files: CorpusFile[] = [];
  const read = { npm: () => npmFiles(repoRoot), python: pythonFiles, repos: () => applicationFiles(reposDir) };
  for (const source of CORPUS_SOURCES.filter((s) => sources.includes(s)).map((s) => read[s]())) {
    for (const { read, ...file } of source) {
      let text: string;
      try {
        text = read();
      } catch {
        continue;
      }
      text = text.replace(/\r\n/g, "\n");
      if (!looksHandWritten(text, file.language) || text.includes("\uFFFD")) continue;
      const digest = createHash("sha256").update(text).digest("hex");
      if (seen.has(digest)) continue;
      seen.add(digest);
      if (!lines.addUnlessNearDuplicate(text, NEAR_DUPLICATE_SHARE)) continue;
      files.push({ ...file, text, split: splitOf(text) });
    }
  }
  return files;
}
