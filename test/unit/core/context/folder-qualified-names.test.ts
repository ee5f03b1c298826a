import assert from "node:assert/strict";
import { folderQualifiedNames, ownFolderName, qualifiedName } from "../../../../src/core/context/folder-qualified-names";

describe("names from several folders (prompt files, agents, MCP servers)", () => {
  const two = ["alpha", "beta"];

  it("a name two folders use is the first folder's; the other's is FOLDER:NAME, so both are reachable", () => {
    const outcomes = folderQualifiedNames([{ name: "review", folder: 0 }, { name: "docs", folder: 0 }, { name: "review", folder: 1 }, { name: "only-beta", folder: 1 }], two);
    assert.deepEqual(outcomes, [{ name: "review" }, { name: "docs" }, { name: "beta:review", qualified: true }, { name: "only-beta" }]);
  });

  it("a repeat in the same folder, or the user's after a workspace's, is hidden by the first", () => {
    assert.deepEqual(folderQualifiedNames([{ name: "review", folder: 1 }, { name: "review", folder: 1 }, { name: "review" }], two), [{ name: "review" }, { hiddenBy: 0 }, { hiddenBy: 0 }]);
    // A third folder's copy beside a qualified one: each folder keeps its own.
    const three = folderQualifiedNames([{ name: "x", folder: 0 }, { name: "x", folder: 1 }, { name: "x", folder: 2 }, { name: "x", folder: 1 }], [...two, "gamma"]);
    assert.deepEqual(three, [{ name: "x" }, { name: "beta:x", qualified: true }, { name: "gamma:x", qualified: true }, { hiddenBy: 1 }]);
  });

  it("one folder: the first of a name wins, as before; reserved names are never taken", () => {
    assert.deepEqual(folderQualifiedNames([{ name: "a", folder: 0 }, { name: "a", folder: 0 }], ["alpha"]), [{ name: "a" }, { hiddenBy: 0 }]);
    assert.deepEqual(folderQualifiedNames([{ name: "init", folder: 0 }, { name: "init", folder: 1 }], two, (n) => n === "init"), [{ reserved: true }, { reserved: true }]);
  });

  it("a folder name is made typeable after /", () => {
    assert.equal(qualifiedName("my app (web)", "review"), "my-app-web-:review");
  });

  it("a folder's file naming an agent means its own folder's, when that one was qualified", () => {
    const names = new Set(["reviewer", "beta:reviewer", "helper"]);
    assert.equal(ownFolderName("reviewer", 1, two, names), "beta:reviewer");
    assert.equal(ownFolderName("reviewer", 0, two, names), "reviewer");
    assert.equal(ownFolderName("helper", 1, two, names), "helper", "only alpha has one: that one");
    assert.equal(ownFolderName("reviewer", undefined, two, names), "reviewer", "the user's own files");
    assert.equal(ownFolderName("reviewer", 0, ["alpha"], names), "reviewer");
  });

  it("folders named in other scripts keep their names when qualified, and two of them do not become one (前端, 后端, 测试)", () => {
    const outcomes = folderQualifiedNames([{ name: "review", folder: 0 }, { name: "review", folder: 1 }, { name: "review", folder: 2 }], ["前端", "后端", "测试"]);
    assert.deepEqual(outcomes, [{ name: "review" }, { name: "后端:review", qualified: true }, { name: "测试:review", qualified: true }]);
    assert.equal(qualifiedName("Données clients", "review"), "Données-clients:review");
  });
});
