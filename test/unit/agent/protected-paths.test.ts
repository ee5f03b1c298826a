import assert from "node:assert/strict";
import { protectedPathReason } from "../../../src/core/agent/protected-paths";

describe("core/agent: files whose edit always asks", () => {
  it("git's data, at the root or in a nested repository, in any case", () => {
    for (const path of [".git/config", ".git/hooks/pre-commit", "vendor/lib/.git/config", ".GIT/config", ".git", "./.git/info/attributes"]) {
      assert.match(protectedPathReason(path) ?? "", /git's own data/, path);
    }
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
