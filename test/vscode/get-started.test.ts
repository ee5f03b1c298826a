import * as assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import * as vscode from "vscode";
import type { AssistantTurn } from "../../src/core/chat/conversation";
import type { ConnectionReport } from "../../src/core/onboarding/connection-report";
import { recommendCoderModel } from "../../src/core/onboarding/recommend-model";
import type { WispApi } from "../../src/extension/extension";
import { readMachineFacts } from "../../src/extension/onboarding/machine-facts";
import { findPreset } from "../../src/server/models/pull/presets";
import { freePort } from "../harness/free-port";
import { HubServer } from "../harness/hub-server";
import { ScriptedApi } from "../harness/scripted-api";
import { startScriptedChatServer, type ScriptedChatServer } from "../harness/scripted-chat-server";
import { waitFor } from "../harness/wait-for";
import { activateWisp, connectToLocalServer, connectWisp, resetWisp, wispExtensionId } from "./support/wisp-extension";

interface WalkthroughStep {
  id: string;
  description: string;
  completionEvents: string[];
}

describe("Get started: the walkthrough, Connect a Server, a model for this machine", function () {
  this.timeout(180_000);
  const key = "sk-get-started";
  let api: WispApi;
  let chatServer: ScriptedChatServer;
  const config = () => vscode.workspace.getConfiguration("wisp");
  const extension = () => vscode.extensions.getExtension(wispExtensionId)!;
  const steps = () => (extension().packageJSON.contributes.walkthroughs[0].steps as WalkthroughStep[]);
  const commandsOf = (step: WalkthroughStep) => [...step.description.matchAll(/\(command:([\w.]+)\)/g)].map((m) => m[1]!);
  const connect = (url: string, apiKey: string) => vscode.commands.executeCommand<ConnectionReport>("wisp.connectServer", url, apiKey);
  const lastAnswer = () => api.chat.state().chat.turns.filter((t): t is AssistantTurn => t.role === "assistant").at(-1);
  const answered = async (): Promise<AssistantTurn> => (await waitFor("the answer", lastAnswer, (t) => t !== undefined && t.status !== "streaming" && !api.chat.state().streaming, 60_000))!;

  before(async () => {
    api = await activateWisp();
    await resetWisp();
    chatServer = await startScriptedChatServer({ key });
  });
  after(async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await resetWisp();
    await chatServer?.close();
  });

  it("opened the walkthrough at this fresh profile's first activation, and Wisp: Get Started opens it again", async () => {
    assert.equal(api.onboarding.walkthroughOpened(), true, "the first activation on a fresh profile opens it");
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await vscode.commands.executeCommand("wisp.getStarted");
    const tabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => t.label));
    await waitFor("the walkthrough's tab", tabs, (labels) => labels.some((l) => /Welcome|Walkthrough|Get started with Wisp/.test(l)));
  });

  it("each step's button is a Wisp command, and each step ticks off on what it asks for", async () => {
    const all = await vscode.commands.getCommands(true);
    const byStep = Object.fromEntries(steps().map((s) => [s.id, commandsOf(s)]));
    assert.deepEqual(byStep, {
      models: ["wisp.downloadRecommendedModel", "wisp.connectServer"],
      ghostText: ["wisp.getStarted.tryGhostText"],
      chat: ["wisp.getStarted.askChat"],
      agent: ["wisp.agent.ask"],
      image: ["wisp.generateImage"],
    });
    for (const command of Object.values(byStep).flat()) assert.ok(all.includes(command), `${command} is registered`);
    assert.deepEqual(steps().map((s) => s.completionEvents), [["onContext:wisp.realModel"], ["onContext:wisp.tried.ghostText"], ["onContext:wisp.tried.chat"], ["onContext:wisp.tried.agent"], ["onContext:wisp.tried.image"]]);
  });

  it("Try Ghost Text opens the sample with the cursor in a function body, and the suggestion shown ticks the step", async () => {
    const completions = await ScriptedApi.start({ key, models: ["scripted-coder"], complete: () => "return Math.round(net * (1 + taxRate) * 100) / 100;" });
    try {
      await connectWisp(api, completions.baseUrl, key);
      await vscode.commands.executeCommand("wisp.getStarted.tryGhostText");
      const editor = vscode.window.activeTextEditor!;
      assert.match(editor.document.uri.fsPath, /get-started[\\/]wisp-sample-cart\.ts$/);
      assert.equal(editor.document.lineAt(editor.selection.active.line).text, "  ");
      assert.match(editor.document.lineAt(editor.selection.active.line - 1).text, /const net = subtotal\(items\);/);
      await waitFor("the ghost-text milestone", () => api.onboarding.reached(), (reached) => reached.includes("ghostText"), 30_000);
      assert.ok(completions.textRequests.length > 0, "the server was asked");
    } finally {
      await completions.close();
    }
  });

  it("Explain the Sample's Code asks the chat about a function of the sample; the answer ticks the step", async () => {
    await connectWisp(api, chatServer.baseUrl, key);
    chatServer.queue({ text: "subtotal adds price times quantity over the items." });
    const before = chatServer.chatRequests.length;
    await vscode.commands.executeCommand("wisp.getStarted.askChat");
    const turn = await answered();
    assert.equal(turn.status, "done");
    const asked = JSON.stringify(chatServer.chatRequests[before]!.messages);
    assert.match(asked, /export function subtotal\(items: Item\[\]\): number/);
    assert.ok(api.onboarding.reached().includes("chat"));
  });

  it("the agent step: a task carried out ticks it; the embedded models are refused, with the way out", async () => {
    await connectWisp(api, chatServer.baseUrl, key);
    chatServer.queue({ text: "Nothing to change: the sample is fine." });
    await vscode.commands.executeCommand("wisp.agent.ask", "Check the sample");
    const done = await answered();
    assert.equal(done.agent?.end, "done");
    assert.ok(api.onboarding.reached().includes("agent"));

    const local = await connectToLocalServer();
    try {
      await waitFor("the local server's models in the chat", async () => {
        await api.chat.fromView({ type: "refreshModels" });
        return api.chat.state();
      }, (state) => state.model === local.model);
      const requests = chatServer.chatRequests.length;
      await vscode.commands.executeCommand("wisp.agent.ask", "Add a test for subtotal");
      const refused = await answered();
      assert.equal(refused.text, `The agent cannot work with ${local.model}, one of the tiny embedded models: it needs a chat model that calls tools, with a context of 8k tokens or more.`);
      assert.equal(refused.model, local.model, "the refusal names the model: the view puts the way out under it");
      assert.equal(api.chat.state().embeddedOnly, true);
      assert.equal(chatServer.chatRequests.length, requests, "no request was made");
    } finally {
      await api.chat.fromView({ type: "setMode", mode: "ask" });
      await resetWisp();
      await local.stop();
    }
  });

  it("Connect a Server says plainly what is wrong: nothing there, a refused key, no chat model, no FIM; a good server is saved", async () => {
    const nothing = `http://127.0.0.1:${await freePort()}/v1`;
    const imagesOnly = await startScriptedChatServer({ key, models: [{ id: "sd-turbo", kind: "image" }] });
    const local = await connectToLocalServer();
    try {
      await resetWisp();
      const unreachable = await connect(nothing, key);
      assert.deepEqual(unreachable.problems, ["unreachable"]);
      assert.equal(unreachable.headline, `Nothing answers at ${nothing}: is the server running, and is this its address?`);
      assert.equal(config().get("baseUrl"), "http://127.0.0.1:8765/v1", "nothing saved");

      const refused = await connect(chatServer.baseUrl, "sk-not-this-one");
      assert.deepEqual(refused.problems, ["bad-key"]);
      assert.equal(refused.headline, `${chatServer.baseUrl} refused the key (401 Unauthorized): check the key, or ask the server's owner for one.`);
      assert.equal(config().get("baseUrl"), "http://127.0.0.1:8765/v1", "nothing saved");

      const noChat = await connect(imagesOnly.baseUrl, key);
      assert.deepEqual(noChat.problems, ["no-chat-model", "no-fim"]);
      assert.match(noChat.headline, /^No chat model: the server lists only image models, none that answers in the chat\./);
      assert.ok(noChat.lines.includes("Models (1): sd-turbo."));

      const noFim = await connect(chatServer.baseUrl, key);
      assert.deepEqual(noFim.problems, ["no-fim"]);
      assert.equal(noFim.headline, "No FIM: the server has no /v1/completions endpoint, so no ghost text (the chat does not need it).");
      assert.ok(noFim.lines.includes("Chat: scripted-chat answers."));

      const good = await connect(local.baseUrl, local.key);
      assert.equal(good.ok, true, good.headline);
      assert.equal(good.headline, `Connected to ${local.baseUrl}: ${local.model} answers in the chat, ${local.model} writes ghost text.`);
      assert.equal(config().get("baseUrl"), local.baseUrl, "saved");
      await waitFor("Wisp ready on it", () => api.statusBar().state, (s) => s === "ready", 30_000);
      assert.ok(api.logLines().includes(`[info] connection test: Ghost text: ${local.model} fills in the middle.`), "the log has each check");
      assert.ok(!api.logLines().some((l) => l.includes(local.key)), "the key never reaches the log");
    } finally {
      await resetWisp();
      await imagesOnly.close();
      await local.stop();
    }
  });

  it("Connect a Server from one server to another: the new server's key never goes to the old one, nor the old key to the new; back to the first with no key typed uses its own key again", async () => {
    const serverA = await startScriptedChatServer({ key: "sk-server-a" });
    const serverB = await startScriptedChatServer({ key: "sk-server-b" });
    try {
      await resetWisp();
      assert.equal((await connect(serverA.baseUrl, serverA.key)).answers, true);
      await waitFor("Wisp ready on A", () => api.statusBar().state, (s) => s === "ready", 30_000);
      const seenByA = serverA.authorizations.length;
      assert.equal((await connect(serverB.baseUrl, serverB.key)).answers, true);
      assert.equal(config().get("baseUrl"), serverB.baseUrl, "saved");
      await waitFor("Wisp ready on B", () => api.statusBar().state, (s) => s === "ready", 30_000);
      // Checks and model lists the switch set off may still be on their way.
      await new Promise((done) => setTimeout(done, 2000));
      assert.ok(!serverA.authorizations.includes(`Bearer ${serverB.key}`), `A received B's key (A saw ${serverA.authorizations.length - seenByA} requests after the switch)`);
      assert.ok(!serverB.authorizations.includes(`Bearer ${serverA.key}`), "B received A's key");
      // A's key is kept for it: the switch back asks for none, and B's (typed last) does not go to A.
      const back = await connect(serverA.baseUrl, "");
      assert.equal(back.answers, true, back.headline);
      assert.equal(config().get("baseUrl"), serverA.baseUrl);
      await waitFor("Wisp ready on A again", () => api.statusBar().state, (s) => s === "ready", 30_000);
      assert.equal(serverA.authorizations.at(-1), `Bearer ${serverA.key}`);
      assert.ok(!serverA.authorizations.includes(`Bearer ${serverB.key}`), "A received B's key");
    } finally {
      await resetWisp();
      await serverA.close();
      await serverB.close();
    }
  });

  it("Connect a Server in a workspace whose settings name a model the server lacks: the window uses the server it connected and the server's own model", async () => {
    const serverB = await startScriptedChatServer({ key: "sk-server-b" });
    const workspace = (setting: string, value: unknown) => vscode.workspace.getConfiguration("wisp").update(setting, value, vscode.ConfigurationTarget.Workspace);
    try {
      await resetWisp();
      // A team's .vscode/settings.json names its model, which wins over the user's settings.
      await workspace("chat.model", "team-only-model");
      const report = await connect(serverB.baseUrl, serverB.key);
      assert.equal(report.answers, true, report.headline);
      assert.equal(config().get("baseUrl"), serverB.baseUrl);
      assert.equal(config().get("chat.model"), "", "the workspace's model, which B does not list, was cleared where it was set");
      await waitFor("Wisp ready on B", () => api.statusBar().state, (s) => s === "ready", 30_000);
      assert.ok(serverB.authorizations.includes(`Bearer ${serverB.key}`), "B was asked with its key");
    } finally {
      await workspace("chat.model", undefined);
      await resetWisp();
      await serverB.close();
    }
  });

  it("the Setup view (the chat's welcome content) shows while the server is down and goes once it answers", async () => {
    const flaky = await ScriptedApi.start({ key, models: ["scripted-chat"] });
    try {
      await vscode.commands.executeCommand("workbench.view.extension.wisp");
      await connectWisp(api, flaky.baseUrl, key);
      await waitFor("setup ok", () => api.onboarding.setupState(), (s) => s === "ok");
      await waitFor("the Setup view hidden while the server answers", () => api.onboarding.setupViewVisible(), (visible) => !visible);
      await flaky.goDown();
      await vscode.commands.executeCommand("wisp.checkConnection");
      await waitFor("setup unreachable", () => api.onboarding.setupState(), (s) => s === "unreachable");
      await waitFor("the Setup view on screen", () => api.onboarding.setupViewVisible(), Boolean);
      await flaky.comeBack();
      // What the view's Check Again button runs.
      await vscode.commands.executeCommand("wisp.checkConnection");
      await waitFor("setup ok again", () => api.onboarding.setupState(), (s) => s === "ok");
      await waitFor("the Setup view gone", () => api.onboarding.setupViewVisible(), (visible) => !visible);
    } finally {
      await resetWisp();
      await flaky.close();
    }
  });

  it("Download a Model for This Machine: the recommended model first, through the mirror; it is served, ghost text and chat follow it, Undo puts them back", async () => {
    const local = await connectToLocalServer();
    const hub = await HubServer.start();
    try {
      await waitFor("ready on the embedded models", () => api.statusBar(), (v) => v.state === "ready" && v.text.endsWith("· tiny models"), 60_000);
      await config().update("localServer.modelsDir", local.modelsDir, vscode.ConfigurationTarget.Global);
      await config().update("localServer.modelMirror", hub.origin, vscode.ConfigurationTarget.Global);
      const recommended = findPreset(`qwen2.5-coder-${recommendCoderModel(await readMachineFacts()).size}`)!;
      const gguf = await readFile(join(extension().extensionPath, "models", "wisp-coder.gguf"));
      const url = hub.serve(recommended.repo, recommended.file, { body: gguf });
      const id = recommended.file.replace(/\.gguf$/, "");

      const picked = vscode.commands.executeCommand<string | undefined>("wisp.downloadRecommendedModel");
      // The recommended model is the pick's first row: accept it, again until the pick has shown.
      const downloaded = await waitFor("the pick to accept", async () => {
        await vscode.commands.executeCommand("workbench.action.acceptSelectedQuickOpenItem");
        return Promise.race([picked, new Promise<"open">((done) => setTimeout(() => done("open"), 300))]);
      }, (value) => value !== "open");
      assert.equal(downloaded, id);
      assert.equal(hub.requestsFor(url).length, 1);
      assert.ok(existsSync(join(local.modelsDir, recommended.file)));
      assert.equal(config().get("completion.model"), id, "ghost text follows the download");
      assert.equal(config().get("chat.model"), id, "and the chat");
      const answer = await local.complete({ model: id, prompt: "def add(a, b):", max_tokens: 2, temperature: 0 });
      assert.equal(answer.choices.length, 1, "the running server serves it");
      await waitFor("no longer on the tiny models", () => api.statusBar(), (v) => v.state === "ready" && !v.text.includes("tiny"));

      // The notification's first button is Undo.
      await waitFor("Undo to put the settings back", async () => {
        await vscode.commands.executeCommand("notification.acceptPrimaryAction");
        return [config().get("completion.model"), config().get("chat.model")];
      }, (models) => models[0] === "" && models[1] === "");
      const settings = vscode.workspace.getConfiguration("wisp").inspect("completion.model");
      assert.equal(settings?.globalValue, undefined, "the setting is gone, not set to an empty name");
    } finally {
      await config().update("localServer.modelsDir", undefined, vscode.ConfigurationTarget.Global);
      await config().update("localServer.modelMirror", undefined, vscode.ConfigurationTarget.Global);
      await resetWisp();
      await hub.close();
      await local.stop();
    }
  });
});
