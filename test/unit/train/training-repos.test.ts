import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { TRAINING_REPOS } from "../../../scripts/train/training-repos";

// Code the model is measured on, or kept for trying it as a new user would, must never be trained on.
const RESERVED = ["pallets/flask", "expressjs/express", "microsoft/vscode-extension-samples"];
const PERMISSIVE = new Set(["MIT", "ISC", "BSD-2-Clause", "BSD-3-Clause", "Apache-2.0", "CC0-1.0", "MIT OR Apache-2.0", "MIT OR Unlicense"]);

/** owner/name of each installed npm package's GitHub repository (its package.json's `repository`). */
function installedPackageRepos(): Set<string> {
  const names = readdirSync("node_modules").flatMap((d) => (d.startsWith("@") ? readdirSync(path.join("node_modules", d)).map((s) => `${d}/${s}`) : d.startsWith(".") ? [] : [d]));
  const repos = new Set<string>();
  for (const name of names) {
    const file = path.join("node_modules", name, "package.json");
    if (!existsSync(file)) continue;
    const repository = (JSON.parse(readFileSync(file, "utf8")) as { repository?: string | { url?: string } }).repository;
    const url = typeof repository === "string" ? repository : repository?.url;
    const match = url?.match(/github(?:\.com[/:]|:)([^/]+)\/([^/#]+?)(?:\.git)?(?:[/#]|$)/);
    if (match) repos.add(`${match[1]}/${match[2]}`.toLowerCase());
  }
  return repos;
}

describe("training corpus: the pinned repositories", () => {
  it("are none of the bench's projects, the reserved ones, or an installed package's repository", () => {
    const bench = readdirSync("bench/fim-quality/third_party")
      .filter((n) => n.includes("__"))
      .map((n) => n.replace("__", "/").toLowerCase());
    assert.ok(bench.length >= 7, `the bench's projects: ${bench.join(", ")}`);
    const dependencies = installedPackageRepos();
    assert.ok(dependencies.has("withcatai/node-llama-cpp"), "the installed packages' repositories are read");
    const forbidden = new Set([...bench, ...RESERVED, ...dependencies]);
    const clashes = TRAINING_REPOS.filter((r) => forbidden.has(r.name.toLowerCase())).map((r) => r.name);
    assert.deepEqual(clashes, []);
  });

  it("are each pinned to a commit, permissively licensed, and listed once", () => {
    for (const repo of TRAINING_REPOS) {
      assert.match(repo.commit, /^[0-9a-f]{40}$/, repo.name);
      assert.ok(PERMISSIVE.has(repo.license), `${repo.name}: ${repo.license}`);
      assert.ok(repo.licenseFile.length > 0, repo.name);
    }
    const names = TRAINING_REPOS.map((r) => r.name.toLowerCase());
    assert.equal(new Set(names).size, names.length);
  });
});
