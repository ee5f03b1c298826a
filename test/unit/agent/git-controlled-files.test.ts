import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gitControlledReason } from "../../../src/extension/agent/git-controlled-files";

describe("extension/agent: workspace files git reads as config or runs as hooks", () => {
  let root: string;
  const git = (...args: string[]) => execFileSync("git", args, { cwd: root, encoding: "utf8" });

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "wisp-git-controlled-"));
    git("init", "--quiet");
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("a file the repository's config includes: editing it to set core.fsmonitor makes the next git status run a command", async () => {
    git("config", "--local", "include.path", "../.gitconfig");
    git("config", "--local", "includeIf.onbranch:main.path", "../config/team.gitconfig");
    // What the edit would do: git status then runs the command.
    writeFileSync(join(root, ".gitconfig"), `[core]\n\tfsmonitor = "touch ${join(root, "ran")}; false"\n`);
    git("status", "--short");
    assert.ok(existsSync(join(root, "ran")), "git status ran core.fsmonitor from the included file");
    assert.match((await gitControlledReason(root, ".gitconfig")) ?? "", /^is git configuration that \.git\/config includes \(include\.path\): git runs the commands it names/);
    // Not there yet: git reads it once it is created.
    assert.match((await gitControlledReason(root, "config/team.gitconfig")) ?? "", /includes \(includeif\.onbranch:main\.path\)/);
    assert.equal(await gitControlledReason(root, "src/app.ts"), undefined);
  });

  it("the folder core.hooksPath names: its files run on commit and checkout", async () => {
    git("config", "--local", "core.hooksPath", ".githooks");
    mkdirSync(join(root, ".githooks"));
    assert.match((await gitControlledReason(root, ".githooks/pre-commit")) ?? "", /^is in the git hooks folder \(core\.hooksPath \.githooks\)/);
    assert.equal(await gitControlledReason(root, ".githooks-notes.md"), undefined);
  });

  it("a repository nested in the workspace folder, for a file in a folder not made yet", async () => {
    const nested = join(root, "packages/app");
    mkdirSync(nested, { recursive: true });
    execFileSync("git", ["init", "--quiet"], { cwd: nested });
    execFileSync("git", ["config", "--local", "include.path", "../git/shared.cfg"], { cwd: nested });
    assert.match((await gitControlledReason(root, "packages/app/git/shared.cfg")) ?? "", /^is git configuration that packages\/app\/\.git\/config includes \(include\.path\)/);
  });

  it("nothing outside a repository", async () => {
    rmSync(join(root, ".git"), { recursive: true });
    assert.equal(await gitControlledReason(root, ".gitconfig"), undefined);
  });
});
