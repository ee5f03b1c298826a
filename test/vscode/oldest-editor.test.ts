import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { activateWisp, wispExtensionId } from "./support/wisp-extension";

// Runs in the oldest VS Code package.json's engines.vscode accepts (npm run test:vscode:oldest) only.
describe("Wisp in the oldest VS Code it supports", () => {
  it("is that version: the one engines.vscode names, which has no language-model provider API", () => {
    const engine = (vscode.extensions.getExtension(wispExtensionId)!.packageJSON as { engines: { vscode: string } }).engines.vscode;
    assert.equal(vscode.version.split(".").slice(0, 2).join("."), engine.replace(/^\^/, "").split(".").slice(0, 2).join("."), `VS Code ${vscode.version}, engines.vscode ${engine}`);
    assert.equal(typeof (vscode.lm as { registerLanguageModelChatProvider?: unknown }).registerLanguageModelChatProvider, "undefined");
  });

  it("activates without that API, registers every command it contributes, and says in its log why the editor's chat does not list its models", async () => {
    const api = await activateWisp();
    const extension = vscode.extensions.getExtension(wispExtensionId)!;
    assert.equal(extension.isActive, true);
    const contributed = (extension.packageJSON as { contributes: { commands: { command: string }[] } }).contributes.commands.map(({ command }) => command);
    const registered = new Set(await vscode.commands.getCommands(true));
    assert.deepEqual(contributed.filter((id) => !registered.has(id)), [], "contributed commands not registered");
    assert.ok(
      api.logLines().some((line) => line.includes(`Wisp's models are not offered in the editor's chat: that needs VS Code 1.106 or later, and this is ${vscode.version}.`)),
      api.logLines().join("\n"),
    );
    assert.deepEqual(await vscode.lm.selectChatModels({ vendor: "wisp" }), []);
  });
});
