// Copies the honest held-out set of the completion-quality bench out of repository snapshots:
// application code from projects that are neither in the default model's training data nor
// dependencies of this repository. Run again to refresh it:
//   node scripts/eval/import-heldout.mjs OWNER/NAME=GIT_DIR=SPDX-ID=KIND ...
// Only the named projects are replaced; the others and their SOURCES.md rows stay. KIND (default
// application) says what sort of code it is. Each GIT_DIR is a bare clone (or a snapshot's git
// directory). From each repository's HEAD it
// takes the source files (Python, JavaScript, TypeScript) of 1-12 KB that are not tests, migrations,
// vendored, minified or generated code, sorted by path, at most PER_REPO of them spread evenly (a
// file whose text an earlier pick has is skipped: samples repeat their scripts), and its licence
// file; bench/fim-quality/third_party/SOURCES.md lists the repository, kind, commit and licence.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const out = join(root, "bench/fim-quality/third_party");
const PER_REPO = 24;
const excluded = /(^|\/)(tests?|spec|__tests__|e2e|migrations|vendor|static\/js|dist|build|node_modules|fixtures?)\/|\.(min|spec|test|d)\.[jt]sx?$|(^|\/)(test_|conftest|setup\.py)|__init__\.py$/;
const languages = { py: "python", js: "javascript", mjs: "javascript", ts: "typescript", tsx: "typescript" };

const git = (dir, ...args) => execFileSync("git", ["--git-dir", dir, ...args], { encoding: "utf8", maxBuffer: 1 << 28 });

const sourcesFile = join(out, "SOURCES.md");
const ROW = /^\| \[([^\]]+)\]/;
// The rows of projects not imported again this time, as they were.
const rows = existsSync(sourcesFile) ? readFileSync(sourcesFile, "utf8").split("\n").filter((l) => ROW.test(l)) : [];
for (const arg of process.argv.slice(2)) {
  const [name, dir, spdx, kind = "application"] = arg.split("=");
  const commit = git(dir, "rev-parse", "HEAD").trim();
  const tree = git(dir, "ls-tree", "-r", "-l", "HEAD").split("\n").filter(Boolean);
  const files = tree
    .map((line) => {
      const [meta, path] = line.split("\t");
      const [, , object, size] = meta.split(/\s+/);
      return { size: Number(size), object, path };
    })
    .filter((f) => languages[f.path.split(".").pop()] && f.size >= 1024 && f.size <= 12 * 1024 && !excluded.test(f.path))
    .sort((a, b) => (a.path < b.path ? -1 : 1));
  const seenObjects = new Set();
  const distinct = files.filter((f) => !seenObjects.has(f.object) && seenObjects.add(f.object));
  const step = Math.max(1, distinct.length / PER_REPO);
  const picked = Array.from({ length: Math.min(PER_REPO, distinct.length) }, (_, i) => distinct[Math.floor(i * step)]);
  const licence = tree.map((l) => l.split("\t")[1]).find((p) => /^(LICENSE|LICENCE|COPYING)(\.md|\.txt)?$/i.test(p));
  if (!licence) throw new Error(`${name} has no licence file at its root`);
  const target = join(out, name.replace("/", "__"));
  rmSync(target, { recursive: true, force: true });
  for (const file of [...picked.map((f) => f.path), licence]) {
    mkdirSync(dirname(join(target, file)), { recursive: true });
    writeFileSync(join(target, file), git(dir, "show", `HEAD:${file}`));
  }
  const row = `| [${name}](https://github.com/${name}) | ${kind} | \`${commit.slice(0, 12)}\` | ${spdx} (\`${licence}\`) | ${picked.length} |`;
  // A project imported again keeps its place in the table.
  const at = rows.findIndex((r) => ROW.exec(r)[1] === name);
  if (at >= 0) rows[at] = row;
  else rows.push(row);
}
writeFileSync(
  sourcesFile,
  [
    "# Held-out code for the completion-quality bench",
    "",
    "Code from projects outside the default model's training data and outside this repository's",
    "dependencies (applications, libraries, a framework's samples), copied unchanged with each",
    "project's licence file beside it, used only to measure completions (never to train). Each file",
    "is in the development split or the test split by a hash of its path (bench/fim-quality/cases.ts):",
    "settings are chosen on the development split. Written by `scripts/eval/import-heldout.mjs`.",
    "",
    "| repository | kind | commit | licence | files |",
    "|---|---|---|---|---|",
    ...rows,
    "",
  ].join("\n"),
);
console.log(rows.join("\n"));
