import * as assert from "node:assert/strict";
import * as vscode from "vscode";
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

});
