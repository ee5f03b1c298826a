import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { extensionHostLogs, logEntries } from "./support/extension-host-log";
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
    const files = extensionHostLogs(process.env.WISP_TEST_USER_DATA_DIR ?? "");
    assert.ok(files.length > 0, "the extension host writes a log");
    // Installed, an extension's misuse is logged as an error; run from its folder (as here), as a deprecation warning.
    const raised = files.flatMap(logEntries).filter((entry) => (entry.level === "error" || entry.level === "warning") && entry.text.includes(extensionPath));
    assert.deepEqual(raised.map((entry) => {
      const lines = entry.text.split("\n");
      return [lines[0], lines.find((line) => line.includes(extensionPath))].join("\n");
    }), []);
  });
});
