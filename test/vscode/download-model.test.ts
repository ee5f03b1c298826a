import * as assert from "node:assert/strict";
import { existsSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import * as vscode from "vscode";
import type { WispApi } from "../../src/extension/extension";
import { modelPresets } from "../../src/server/models/pull/presets";
import { HubServer } from "../harness/hub-server";
import type { LocalTextServer } from "../harness/local-text-server";
import { waitFor } from "../harness/wait-for";
import { activateWisp, connectToLocalServer, logFromNow, resetWisp, wispExtensionId } from "./support/wisp-extension";

describe("Wisp: Download Model", function () {
  this.timeout(180_000);
  let api: WispApi;
  let server: LocalTextServer;
  let hub: HubServer;
  let gguf: Buffer;
  const config = () => vscode.workspace.getConfiguration("wisp");

  before(async () => {
    api = await activateWisp();
    await resetWisp();
    server = await connectToLocalServer();
    await waitFor("status ready", () => api.statusBar().state, (state) => state === "ready", 60_000);
    hub = await HubServer.start();
    // The model the extension ships, served by a loopback hub as if it were published there.
    gguf = await readFile(join(vscode.extensions.getExtension(wispExtensionId)!.extensionPath, "models", "wisp-coder.gguf"));
    await config().update("localServer.modelsDir", server.modelsDir, vscode.ConfigurationTarget.Global);
    await config().update("localServer.modelMirror", hub.origin, vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    await config().update("localServer.modelsDir", undefined, vscode.ConfigurationTarget.Global);
    await config().update("localServer.modelMirror", undefined, vscode.ConfigurationTarget.Global);
    await resetWisp();
    await hub?.close();
    await server?.stop();
  });

  it("downloads through the mirror, resumes a cut connection, and the running server serves the model it sets for completions", async () => {
    const cut = Math.floor(gguf.length / 3);
    let release!: () => void;
    const cutWhen = new Promise<void>((resolve) => (release = resolve));
    const url = hub.serve("wisp-test/Coder-GGUF", "coder-q8_0.gguf", { body: gguf, cutFirstAfter: cut, cutWhen });
    const downloaded = vscode.commands.executeCommand("wisp.downloadModel", "wisp-test/Coder-GGUF/coder-q8_0.gguf", "completion");
    const part = join(server.modelsDir, "coder-q8_0.gguf.part");
    await waitFor("the first attempt's bytes on disk", () => (existsSync(part) ? statSync(part).size : 0), (size) => size === cut);
    release();
    const id = await downloaded;
    assert.equal(id, "coder-q8_0");
    assert.deepEqual(hub.requestsFor(url).map((r) => r.range), [undefined, `bytes=${cut}-`]);
    assert.equal(config().get("completion.model"), "coder-q8_0");
    const lines = api.logLines();
    assert.ok(lines.some((l) => /download .* \(100%\)/.test(l)), "progress reached the whole file");
    assert.ok(lines.some((l) => /downloaded .*coder-q8_0\.gguf \(.*, 2 requests\); sha256 [0-9a-f]{64} \(first\)/.test(l)), lines.join("\n"));
    assert.deepEqual(await readFile(join(server.modelsDir, "coder-q8_0.gguf")), gguf);
    const answer = await server.complete({ model: "coder-q8_0", prompt: "def add(a, b):", max_tokens: 2, temperature: 0 });
    assert.equal(answer.choices.length, 1);
  });

  it("offers the recommended models in a quick pick and downloads the one chosen; it takes over the chat, keeps the completion model the user chose, and Undo puts the chat back", async () => {
    // The user's own completion model, as the test before leaves it (set here too, so that the test also runs alone).
    await config().update("completion.model", "coder-q8_0", vscode.ConfigurationTarget.Global);
    const first = modelPresets.find((p) => p.role === "completion")!;
    const url = hub.serve(first.repo, first.file, { body: gguf });
    const picked = vscode.commands.executeCommand<string | undefined>("wisp.downloadModel");
    // The pick opens with the first recommended completion model selected: accept it, again until
    // the pick has shown (the command does nothing while no quick pick is open).
    const id = await waitFor("the quick pick to accept", async () => {
      await vscode.commands.executeCommand("workbench.action.acceptSelectedQuickOpenItem");
      return Promise.race([picked, new Promise<"open">((done) => setTimeout(() => done("open"), 300))]);
    }, (value) => value !== "open");
    assert.equal(id, first.file.replace(/\.gguf$/, ""));
    assert.equal(hub.requestsFor(url).length, 1);
    assert.ok(existsSync(join(server.modelsDir, first.file)));
    assert.equal(config().get("chat.model"), id, "the chat had the server's default: a coder model takes it over");
    assert.equal(config().get("completion.model"), "coder-q8_0", "the completion model set before is the user's choice");
    // The notification that says so has Undo first.
    await waitFor("Undo to put the chat back", async () => {
      await vscode.commands.executeCommand("notification.acceptPrimaryAction");
      return config().get("chat.model");
    }, (model) => model === "");
    assert.equal(config().get("completion.model"), "coder-q8_0");
  });

  it("a next-edit model takes over next edit only", async () => {
    const preset = modelPresets.find((p) => p.role === "next-edit")!;
    hub.serve(preset.repo, preset.file, { body: gguf });
    try {
      const id = await vscode.commands.executeCommand<string | undefined>("wisp.downloadModel", preset.name);
      assert.equal(id, preset.file.replace(/\.gguf$/, ""));
      assert.equal(config().get("nextEdit.model"), id);
      assert.equal(config().get("completion.model"), "coder-q8_0", "completions keep their model");
      assert.equal(config().get("chat.model"), "", "a next-edit model does not chat");
    } finally {
      await config().update("nextEdit.model", undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it("where the user chose the model of every role it fits, it asks instead: Use for Chat sets it", async () => {
    const preset = modelPresets.find((p) => p.role === "chat")!;
    hub.serve(preset.repo, preset.file, { body: gguf });
    await config().update("chat.model", "my-own-chat", vscode.ConfigurationTarget.Global);
    const id = await vscode.commands.executeCommand<string | undefined>("wisp.downloadModel", preset.name);
    assert.equal(config().get("chat.model"), "my-own-chat", "nothing changed before the answer");
    // A chat model's offer has Use for Chat first.
    await waitFor("the offer's first button to set the chat model", async () => {
      await vscode.commands.executeCommand("notification.acceptPrimaryAction");
      return config().get("chat.model");
    }, (model) => model === id);
    await config().update("chat.model", undefined, vscode.ConfigurationTarget.Global);
  });

  it("says what went wrong and writes nothing for a file the mirror does not have", async () => {
    const since = logFromNow(api);
    const id = await vscode.commands.executeCommand("wisp.downloadModel", "wisp-test/Missing-GGUF/missing.gguf", "completion");
    assert.equal(id, undefined);
    assert.ok(since().some((l) => /not found \(HTTP 404\).*missing\.gguf; check the name, or that the mirror has this file/.test(l)));
    assert.ok(!existsSync(join(server.modelsDir, "missing.gguf")) && !existsSync(join(server.modelsDir, "missing.gguf.part")));
    assert.equal(config().get("completion.model"), "coder-q8_0", "the settings are as they were");
  });
});
