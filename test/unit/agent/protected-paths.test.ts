import assert from "node:assert/strict";
import { protectedPathReason } from "../../../src/core/agent/protected-paths";

describe("core/agent: files whose edit always asks", () => {
  it("git's data, at the root or in a nested repository, in any case", () => {
    for (const path of [".git/config", ".git/hooks/pre-commit", "vendor/lib/.git/config", ".GIT/config", ".git", "./.git/info/attributes"]) {
      assert.match(protectedPathReason(path) ?? "", /git's own data/, path);
    }
  });

  it("a HEAD file, which makes its folder a repository to git (a bare one, whose config git status obeys)", () => {
    // HEAD, config ([core] worktree = . and fsmonitor = a command), objects/ and refs/ in a workspace folder that is not a
    // repository's root: the default-approved `git status` there ran the command, with no approval asked.
    for (const path of ["HEAD", "./HEAD", "sub/HEAD", "head"]) assert.match(protectedPathReason(path) ?? "", /git repository to git/, path);
    for (const path of ["config", "objects/x", "refs/heads/main", "src/header.ts", "HEAD.md"]) assert.equal(protectedPathReason(path), undefined, path);
  });

  it("the editor's configuration, workspace files and .wispignore", () => {
    assert.match(protectedPathReason(".vscode/settings.json") ?? "", /editor's configuration/);
    assert.match(protectedPathReason("app/.vscode/tasks.json") ?? "", /editor's configuration/);
    assert.match(protectedPathReason(".VSCode\\mcp.json") ?? "", /editor's configuration/);
    assert.match(protectedPathReason("team.code-workspace") ?? "", /workspace file/);
    assert.match(protectedPathReason(".wispignore") ?? "", /sensitive/);
  });

  it("ordinary files, and names that only look alike, are not protected", () => {
    for (const path of ["src/app.ts", ".gitignore", ".github/workflows/ci.yml", "docs/.git-notes.md", "src/.vscode-like/x.ts", ".vscode", "README.md", ""]) {
      assert.equal(protectedPathReason(path), undefined, path);
    }
  });
});
