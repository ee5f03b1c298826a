import assert from "node:assert/strict";
import { gitExtensionApi, gitExtensionMissing } from "../../../../src/core/scm/git-extension-api";

/** What VS Code's Git extension (1.93) exports when it runs without its model: git.enabled off at start, or no git found. */
const withoutModel = {
  enabled: false,
  getAPI(): never {
    throw new Error("Git model not found");
  },
};

describe("core/scm: VS Code's Git extension without git", () => {
  it("says git.enabled is off, or that no git was found, instead of 'Git model not found'", () => {
    assert.deepEqual(gitExtensionApi(withoutModel, false), { unavailable: "Git is turned off in this window (the git.enabled setting): turn it on to use git here." });
    assert.deepEqual(gitExtensionApi(withoutModel, true), { unavailable: "VS Code's Git extension found no git on this machine: install git, or set git.path to where it is, then reload the window." });
  });

  it("gives the API of an extension that has git", () => {
    const api = { repositories: [] };
    assert.deepEqual(gitExtensionApi({ enabled: true, getAPI: () => api }, true), { api });
  });
});

describe("core/scm: VS Code's Git extension absent", () => {
  it("sends the user to trust the folder in Restricted Mode (VS Code keeps Git off there), not to the Extensions view", () => {
    assert.match(gitExtensionMissing(false), /Restricted Mode.*Trust this folder/);
    assert.doesNotMatch(gitExtensionMissing(false), /Extensions view/);
    assert.match(gitExtensionMissing(true), /enable it \(the Extensions view, @builtin git\)/);
  });
});
