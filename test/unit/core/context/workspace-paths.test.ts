import assert from "node:assert/strict";
import { folderPathCandidates, foldersNamedBy, relativeInFolder, workspacePathOf } from "../../../../src/core/context/workspace-paths";

describe("workspace paths (one folder, or several as VS Code names them)", () => {
  const two = ["alpha", "beta"];

  it("names a file relative to its folder in a single-folder workspace, and with its folder's name when there are more", () => {
    assert.equal(workspacePathOf(["alpha"], 0, "src/index.ts"), "src/index.ts");
    assert.equal(workspacePathOf(two, 0, "src/index.ts"), "alpha/src/index.ts");
    assert.equal(workspacePathOf(two, 1, "src/index.ts"), "beta/src/index.ts");
  });

  it("reads a single folder's path as it is, without looking for a folder name in it", () => {
    assert.deepEqual(folderPathCandidates("src/index.ts", ["src"]), [{ folder: 0, relative: "src/index.ts" }]);
    assert.deepEqual(folderPathCandidates("./src/index.ts", ["alpha"]), [{ folder: 0, relative: "src/index.ts" }]);
    assert.deepEqual(folderPathCandidates("src/index.ts", []), []);
  });

  it("reads the folder a multi-root path names, whichever folder comes first", () => {
    assert.deepEqual(folderPathCandidates("beta/src/index.ts", two), [{ folder: 1, relative: "src/index.ts" }]);
    assert.deepEqual(folderPathCandidates("alpha/src/index.ts", two), [{ folder: 0, relative: "src/index.ts" }]);
  });

  it("offers every folder for a path that names none, so that only a file found in exactly one is taken", () => {
    assert.deepEqual(folderPathCandidates("src/index.ts", two), [
      { folder: 0, relative: "src/index.ts" },
      { folder: 1, relative: "src/index.ts" },
    ]);
    assert.deepEqual(folderPathCandidates("beta", two), [
      { folder: 0, relative: "beta" },
      { folder: 1, relative: "beta" },
    ]);
  });

  it("offers each folder of a repeated name", () => {
    assert.deepEqual(folderPathCandidates("app/main.ts", ["app", "app"]), [
      { folder: 0, relative: "main.ts" },
      { folder: 1, relative: "main.ts" },
    ]);
  });

  it("refuses a path that climbs out of its folder", () => {
    assert.deepEqual(folderPathCandidates("beta/../alpha/secret.ts", two), []);
    assert.deepEqual(folderPathCandidates("..\\outside.ts", ["alpha"]), []);
  });

  it("keeps only one folder's paths for an agent confined to it, relative to that folder", () => {
    assert.equal(relativeInFolder("alpha/src/index.ts", two, 0), "src/index.ts");
    assert.equal(relativeInFolder("beta/src/index.ts", two, 0), undefined);
    assert.equal(relativeInFolder("alphabet/x.ts", two, 0), undefined);
    assert.equal(relativeInFolder("src/index.ts", ["alpha"], 0), "src/index.ts");
  });

  it("tells which folders paths name (several folders only; a bare path names none)", () => {
    assert.deepEqual(foldersNamedBy(["beta/src/a.ts", "cart.py"], two), [1]);
    assert.deepEqual(foldersNamedBy(["beta/a.ts", "alpha/b.ts"], two), [0, 1]);
    assert.deepEqual(foldersNamedBy(["alphabet/a.ts"], two), []);
    assert.deepEqual(foldersNamedBy(["alpha/a.ts"], ["alpha"]), [], "one folder: paths carry no folder");
  });
});
