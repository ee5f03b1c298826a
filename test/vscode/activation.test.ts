import * as assert from "node:assert/strict";
import { join } from "node:path";
import * as vscode from "vscode";
import { extensionHostLogs, raisedBy } from "../harness/extension-host-log";
import { activateWisp, wispExtensionId } from "./support/wisp-extension";

describe("Wisp activation", () => {
  it("activates and registers its commands", async () => {
    const api = await activateWisp();
    assert.equal(vscode.extensions.getExtension(wispExtensionId)?.isActive, true);
    assert.ok(api.logLines().some((line) => line.includes("activated")), "an activation log line");
    const commands = await vscode.commands.getCommands(true);
    for (const id of ["wisp.setApiKey", "wisp.clearApiKey", "wisp.selectModel", "wisp.showLogs", "wisp.statusMenu"]) {
      assert.ok(commands.includes(id), `command ${id} is registered`);
    }
  });

  it("loads and activates without an error or a warning in the extension host's log raised from Wisp's code", async () => {
    await activateWisp();
    const extensionPath = vscode.extensions.getExtension(wispExtensionId)!.extensionPath;
    const userDataDir = process.env.WISP_TEST_USER_DATA_DIR ?? "";
    assert.ok(extensionHostLogs(userDataDir).length > 0, "the extension host writes a log");
    // Installed, a misuse is logged as an error; run from its folder (as here), some as deprecation warnings.
    assert.deepEqual(raisedBy(userDataDir, wispExtensionId, join(extensionPath, "dist")), []);
  });
});
