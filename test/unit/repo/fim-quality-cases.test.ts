import assert from "node:assert/strict";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { outsideCases } from "../../../bench/fim-quality/cases";

// The completion-quality bench's outside projects (bench/fim-quality/third_party): each recorded
// with its licence, each split into a development half (where settings are chosen) and a test half.
const root = join(import.meta.dirname, "..", "..", "..");
const thirdParty = join(root, "bench/fim-quality/third_party");
const projects = readdirSync(thirdParty, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);

describe("the completion bench's outside projects", () => {
  it("are each listed in SOURCES.md with their kind and licence, the licence file beside the code", () => {
    const sources = readFileSync(join(thirdParty, "SOURCES.md"), "utf8");
    assert.ok(projects.length >= 7, projects.join(", "));
    for (const project of projects) {
      const row = sources.split("\n").find((l) => l.startsWith(`| [${project.replace("__", "/")}]`));
      assert.ok(row, `${project} has no row`);
      const [, , kind, , licence] = row.split("|").map((c) => c.trim());
      assert.ok(kind && licence, row);
      const file = /\(`([^`]+)`\)/.exec(licence)?.[1];
      assert.ok(file && existsSync(join(thirdParty, project, file)), `${project}: ${licence}`);
    }
  });

  it("give every project cases in both halves, and all of a file's cases to one half", () => {
    const { cases } = outsideCases(root, []);
    for (const project of projects) {
      const own = cases.filter((c) => c.project === project);
      assert.ok(own.some((c) => c.split === "dev") && own.some((c) => c.split === "test"), project);
    }
    const splitOf = new Map<string, string>();
    for (const c of cases) assert.equal(splitOf.get(c.file) ?? splitOf.set(c.file, c.split).get(c.file), c.split, c.file);
  });

  it("pick a project's cases the same whichever other projects are there", () => {
    const dir = mkdtempSync(join(tmpdir(), "fim-cases-"));
    try {
      const [first, second] = projects;
      const copy = (project: string, into: string) => cpSync(join(thirdParty, project), join(dir, into, "bench/fim-quality/third_party", project), { recursive: true });
      copy(second!, "alone");
      copy(first!, "both");
      copy(second!, "both");
      // Only what comes from the files: their paths differ between the two roots.
      const of = (into: string) =>
        outsideCases(join(dir, into), [])
          .cases.filter((c) => c.project === second)
          .map(({ file, ...rest }) => ({ ...rest, file: file.slice(file.indexOf(second!)) }));
      const alone = of("alone");
      assert.ok(alone.length > 20);
      assert.deepEqual(of("both"), alone);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
