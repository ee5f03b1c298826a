// Copies the honest held-out set of the completion-quality bench out of repository snapshots:
// application code from projects that are neither in the default model's training data nor
// dependencies of this repository. Run again to refresh it:
//   node scripts/eval/import-heldout.mjs OWNER/NAME=GIT_DIR=SPDX-ID ...
// Each GIT_DIR is a bare clone (or a snapshot's git directory). From each repository's HEAD it
// takes the source files (Python, JavaScript, TypeScript) of 1-12 KB that are not tests, migrations,
// vendored, minified or generated code, sorted by path, at most PER_REPO of them spread evenly,
// and its licence file; bench/fim-quality/third_party/SOURCES.md lists the repository, commit and licence.
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const out = join(root, "bench/fim-quality/third_party");
const PER_REPO = 24;
const excluded = /(^|\/)(tests?|spec|__tests__|e2e|migrations|vendor|static\/js|dist|build|node_modules|fixtures?)\/|\.(min|spec|test|d)\.[jt]sx?$|(^|\/)(test_|conftest|setup\.py)|__init__\.py$/;
const languages = { py: "python", js: "javascript", mjs: "javascript", ts: "typescript", tsx: "typescript" };

const git = (dir, ...args) => execFileSync("git", ["--git-dir", dir, ...args], { encoding: "utf8", maxBuffer: 1 << 28 });

rmSync(out, { recursive: true, force: true });
const rows = [];
for (const arg of process.argv.slice(2)) {
  const [name, dir, spdx] = arg.split("=");
  const commit = git(dir, "rev-parse", "HEAD").trim();
  const tree = git(dir, "ls-tree", "-r", "-l", "HEAD").split("\n").filter(Boolean);
  const files = tree
    .map((line) => {
      const [meta, path] = line.split("\t");
      return { size: Number(meta.split(/\s+/)[3]), path };
    })
    .filter((f) => languages[f.path.split(".").pop()] && f.size >= 1024 && f.size <= 12 * 1024 && !excluded.test(f.path))
    .sort((a, b) => (a.path < b.path ? -1 : 1));
  const step = Math.max(1, files.length / PER_REPO);
  const picked = Array.from({ length: Math.min(PER_REPO, files.length) }, (_, i) => files[Math.floor(i * step)]);
  const licence = tree.map((l) => l.split("\t")[1]).find((p) => /^(LICENSE|LICENCE|COPYING)(\.md|\.txt)?$/i.test(p));
  if (!licence) throw new Error(`${name} has no licence file at its root`);
  const target = join(out, name.replace("/", "__"));
  for (const file of [...picked.map((f) => f.path), licence]) {
    mkdirSync(dirname(join(target, file)), { recursive: true });
    writeFileSync(join(target, file), git(dir, "show", `HEAD:${file}`));
  }
  rows.push(`| [${name}](https://github.com/${name}) | \`${commit.slice(0, 12)}\` | ${spdx} (\`${licence}\`) | ${picked.length} |`);
}
writeFileSync(
  join(out, "SOURCES.md"),
  [
    "# Held-out code for the completion-quality bench",
    "",
    "Application code from projects outside the default model's training data and outside this",
    "repository's dependencies, copied unchanged with each project's licence file beside it, used",
    "only to measure completions (never to train). Written by `scripts/eval/import-heldout.mjs`.",
    "",
    "| repository | commit | licence | files |",
    "|---|---|---|---|",
    ...rows,
    "",
  ].join("\n"),
);
console.log(rows.join("\n"));
