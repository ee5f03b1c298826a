import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { activateWisp } from "../vscode/support/wisp-extension";

// The runner opens a folder VS Code does not trust (test/vscode-restricted/trust.json), whose
// .vscode/settings.json sets wisp.image.folder and wisp.chat.userPromptsFolder outside it and
// wisp.completion.debounceMs.

describe("A folder not trusted (Restricted Mode, real VS Code)", function () {
  this.timeout(120_000);

  it("runs Wisp, limited: agent mode says it is off, the folder's settings cannot point Wisp outside it", async () => {
    assert.equal(vscode.workspace.isTrusted, false, "the runner opened the folder in Restricted Mode");
    // An installed Wisp without capabilities.untrustedWorkspaces is disabled here; this run loads it as a
    // development extension, which VS Code never disables, so test/unit/repo/workspace-trust.test.ts checks the declaration.
    const api = await activateWisp();
    assert.match(api.chat.state().agentBlocked ?? "", /Agent mode is off in Restricted Mode/);
    const config = vscode.workspace.getConfiguration("wisp");
    assert.equal(config.get("completion.debounceMs"), 345, "a setting that names no place still applies from the folder");
    assert.equal(config.get("image.folder"), "images", "the folder cannot send generated images elsewhere");
    assert.equal(config.get("chat.userPromptsFolder"), "", "the folder cannot choose where 'your' prompt files come from");
  });

  it("@git says git is off until the folder is trusted, not to enable VS Code's Git extension (which VS Code keeps off here)", async () => {
    const api = await activateWisp();
    const items = await api.chat.mentions("", "git");
    const git = items.find((i) => i.label === "@git");
    assert.ok(git, "the @ list offers @git");
    await assert.rejects(api.chat.fromView({ type: "addMention", id: git.id }), /@git: Git is off in Restricted Mode: .*Trust this folder to use git here\./);
  });
});
