import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import type { WispApi } from "../../src/extension/extension";
import { startModelsServer, type ModelsServer } from "../harness/models-server";
import { userSettingsText } from "./support/user-settings";
import { waitFor } from "../harness/wait-for";
import { activateWisp, resetWisp, setBaseUrl } from "./support/wisp-extension";

/** Runs `step` on the open quick pick until the command `picked` settles: the quick open commands do nothing while no pick is open. */
function untilSettled<T>(picked: Thenable<T>, step: () => Thenable<unknown>): Promise<T> {
  return waitFor("the quick pick to accept", async () => {
    await step();
    return Promise.race([picked, new Promise<"open">((done) => setTimeout(() => done("open"), 300))]);
  }, (value) => value !== "open") as Promise<T>;
}

describe("Wisp: Select Model", () => {
  const key = "sk-wisp-select-model";
  const models = ["tiny-coder-1m", "tiny-chat-1m", "tiny-sd"];
  let api: WispApi;
  let server: ModelsServer;

  before(async () => {
    api = await activateWisp();
    server = await startModelsServer({ key, models });
    await resetWisp();
    await setBaseUrl(server.baseUrl);
    await vscode.commands.executeCommand("wisp.setApiKey", key);
    await waitFor("status ready", () => api.statusBar().state, (state) => state === "ready");
  });
  after(async () => {
    await resetWisp();
    await server?.close();
  });

  it("writes a model the server lists to the settings", async () => {
    const chosen = await vscode.commands.executeCommand("wisp.selectModel", "completion", "tiny-chat-1m");
    assert.equal(chosen, "tiny-chat-1m");
    assert.equal(vscode.workspace.getConfiguration("wisp").get("completion.model"), "tiny-chat-1m");
    await waitFor("settings.json has the model", userSettingsText, (text) => text.includes('"wisp.completion.model": "tiny-chat-1m"'));
  });

  it("offers the server's models in a quick pick", async () => {
    const requests = server.authorizations.length;
    const picked = vscode.commands.executeCommand<string | undefined>("wisp.selectModel", "chat");
    await waitFor("the models request", () => server.authorizations.length, (n) => n > requests);
    // The pick lists the server's models in order: move to the second and accept it, again until
    // the pick has shown (the commands do nothing while no quick pick is open).
    const chosen = await untilSettled(picked, async () => {
      await vscode.commands.executeCommand("workbench.action.quickOpenSelectNext");
      await vscode.commands.executeCommand("workbench.action.acceptSelectedQuickOpenItem");
    });
    assert.equal(chosen, "tiny-chat-1m");
    assert.equal(vscode.workspace.getConfiguration("wisp").get("chat.model"), "tiny-chat-1m");
  });

  it("with the server gone, choosing the role says why, and leaves the settings alone", async () => {
    const down = await startModelsServer({ key, models });
    const baseUrl = down.baseUrl;
    await down.close();
    await setBaseUrl(baseUrl);
    try {
      const before = vscode.workspace.getConfiguration("wisp").get("completion.model");
      const picked = vscode.commands.executeCommand<string | undefined>("wisp.selectModel");
      // Accept the first role (Completion) once the pick shows; the models' listing has failed by then.
      const chosen = await untilSettled(picked, () => vscode.commands.executeCommand("workbench.action.acceptSelectedQuickOpenItem"));
      assert.equal(chosen, undefined);
      assert.equal(vscode.workspace.getConfiguration("wisp").get("completion.model"), before);
      assert.ok(api.logLines().some((line) => line.includes("wisp.selectModel: Cannot reach") && line.includes(baseUrl)), "the error says the server cannot be reached");
    } finally {
      await setBaseUrl(server.baseUrl);
    }
  });

  it("refuses a model the server does not list, leaving the setting alone", async () => {
    const before = vscode.workspace.getConfiguration("wisp").get("image.model");
    const chosen = await vscode.commands.executeCommand("wisp.selectModel", "image", "no-such-model");
    assert.equal(chosen, undefined);
    assert.equal(vscode.workspace.getConfiguration("wisp").get("image.model"), before);
    assert.ok(api.logLines().some((line) => line.includes("no-such-model") && line.includes("tiny-sd")), "the error names the listed models");
  });
});
