import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unresolvedConflicts } from "../../../../src/core/scm/unresolved-conflicts";

describe("core/scm: Generate Commit Message while a merge, rebase or cherry-pick has conflicts (real git)", () => {
  let root: string;
  const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: root, encoding: "utf8" });
  const write = (path: string, text: string) => writeFileSync(join(root, path), text);
  /** Two branches that change app.ts and .env each their own way, and notes.md on one side only. */
  function branches() {
    git("init", "--quiet", "--initial-branch=main");
    write("app.ts", "export const a = 1;\n");
    write(".env", "API_KEY=old\n");
    write("notes.md", "# Notes\n");
    git("add", ".");
    git("commit", "--quiet", "-m", "init");
    git("checkout", "--quiet", "-b", "other");
    write("app.ts", "export const a = 2;\n");
    write(".env", "API_KEY=theirs\n");
    write("notes.md", "# Notes\n\nMore.\n");
    git("commit", "--quiet", "-am", "other");
    git("checkout", "--quiet", "main");
    write("app.ts", "export const a = 3;\n");
    write(".env", "API_KEY=ours\n");
    git("commit", "--quiet", "-am", "main");
  }

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "wisp-conflicts-"));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("names the conflicted files of a stopped merge, and nothing once they are resolved and staged", () => {
    branches();
    assert.notEqual(spawnSync("git", ["merge", "other"], { cwd: root }).status, 0, "the merge stops on its conflicts");
    const staged = git("diff", "--cached");
    assert.equal(unresolvedConflicts(staged), "2 files still have merge conflicts (.env, app.ts): resolve them and stage the files, then generate the message. Git commits nothing until then.");
    write("app.ts", "export const a = 4;\n");
    write(".env", "API_KEY=ours\n");
    git("add", "app.ts", ".env");
    assert.equal(unresolvedConflicts(git("diff", "--cached")), undefined);
  });

  it("names the one file a cherry-pick stopped on, beside the changes it staged", () => {
    branches();
    write(".env", "API_KEY=theirs\n");
    git("commit", "--quiet", "-am", "same env");
    assert.notEqual(spawnSync("git", ["cherry-pick", "other"], { cwd: root }).status, 0, "the cherry-pick stops on its conflict");
    const staged = git("diff", "--cached");
    assert.ok(staged.includes("+More."), "notes.md's change is staged");
    assert.equal(unresolvedConflicts(staged), "app.ts still has merge conflicts: resolve them and stage the file, then generate the message. Git commits nothing until then.");
    assert.equal(unresolvedConflicts("diff --git a/app.ts b/app.ts\nindex 1..2 100644\n--- a/app.ts\n+++ b/app.ts\n@@ -1 +1 @@\n-* Unmerged path x\n+y\n"), undefined, "a line of a diff's hunk is no conflict");
  });
});
