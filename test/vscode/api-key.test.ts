import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import type { WispApi } from "../../src/extension/extension";
import { startModelsServer, type ModelsServer } from "../harness/models-server";
import { userSettingsText } from "./support/user-settings";
import { waitFor } from "../harness/wait-for";
import { activateWisp, resetWisp, setBaseUrl } from "./support/wisp-extension";
import { ApiKeyStore } from "../../src/extension/api-key";

describe("Wisp: Set API Key", () => {
  const key = `sk-wisp-test-${Date.now().toString(36)}`;
  let api: WispApi;
  let server: ModelsServer;

  before(async () => {
    api = await activateWisp();
    server = await startModelsServer({ key, models: ["tiny-coder"] });
  });
  beforeEach(async () => {
    await resetWisp();
    await setBaseUrl(server.baseUrl);
  });
  after(async () => {
    await resetWisp();
    await server?.close();
  });

  it("keeps the key in the secret store, and uses it", async () => {
    assert.equal(await api.apiKeySource(), "none");
    assert.equal(await vscode.commands.executeCommand("wisp.setApiKey", key), true);
    assert.equal(await api.apiKeySource(), "secret");
    await waitFor("status ready", () => api.statusBar().state, (state) => state === "ready");
    assert.ok(server.authorizations.includes(`Bearer ${key}`), "the server received the stored key");
  });

  it("never writes the key to settings.json or the output channel", async () => {
    await vscode.commands.executeCommand("wisp.setApiKey", key);
    await vscode.workspace.getConfiguration("wisp").update("chat.model", "tiny-coder", vscode.ConfigurationTarget.Global);
    await waitFor("status ready", () => api.statusBar().state, (state) => state === "ready");
    const settings = await waitFor("settings.json written", userSettingsText, (text) => text.includes("wisp.baseUrl"));
    assert.ok(!settings.includes(key), "settings.json does not contain the key");
    assert.ok(api.logLines().length > 0);
    assert.ok(!api.logLines().some((line) => line.includes(key)), "no log line contains the key");
  });

  it("Wisp: Clear API Key removes it", async () => {
    await vscode.commands.executeCommand("wisp.setApiKey", key);
    await vscode.commands.executeCommand("wisp.clearApiKey");
    assert.equal(await api.apiKeySource(), "none");
    await waitFor("status no-key", () => api.statusBar().state, (state) => state === "no-key");
  });

  it("a secret store that cannot be read (a locked keyring) gives a reason and WISP_API_KEY, and is read again next time", async () => {
    let locked = true;
    const changes = new vscode.EventEmitter<vscode.SecretStorageChangeEvent>();
    const secrets = {
      get: async () => {
        if (locked) throw new Error("Cannot create an item in a locked collection");
        return "sk-stored";
      },
      store: async () => undefined,
      delete: async () => undefined,
      keys: async () => [],
      onDidChange: changes.event,
    } as unknown as vscode.SecretStorage;
    const store = new ApiKeyStore(secrets, { WISP_API_KEY: "sk-from-env" });
    try {
      assert.deepEqual(await store.resolve(), { key: "sk-from-env", source: "unreadable", problem: "Cannot create an item in a locked collection" });
      locked = false;
      assert.deepEqual(await store.resolve(), { key: "sk-stored", source: "secret" });
    } finally {
      store.dispose();
      changes.dispose();
    }
  });
});
