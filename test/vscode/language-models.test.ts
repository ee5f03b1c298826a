import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import type { WispApi } from "../../src/extension/extension";
import type { LmConsumerApi } from "../fixtures/lm-consumer/extension";
import { startScriptedChatServer, type ScriptedChatServer } from "../harness/scripted-chat-server";
import { waitFor } from "../harness/wait-for";
import { activateWisp, connectToLocalServer, connectWisp, resetWisp, setBaseUrl } from "./support/wisp-extension";
import { fromAnotherExtension } from "./support/host-rejections";

const key = "sk-wisp-language-models";
const { Assistant, User } = vscode.LanguageModelChatMessage;

async function consumer(): Promise<LmConsumerApi> {
  const extension = vscode.extensions.getExtension<LmConsumerApi>("wisp-tests.lm-consumer");
  if (extension === undefined) throw new Error("the fixture extension test/fixtures/lm-consumer is not installed beside Wisp");
  return extension.activate();
}

/** Wisp's models as the other extension sees them, once the list holds exactly `ids`. */
async function modelsNamed(lm: LmConsumerApi, ids: string[]): Promise<vscode.LanguageModelChat[]> {
  return waitFor(`Wisp's models to be ${ids.join(", ") || "none"}`, () => lm.models(), (models) => JSON.stringify(models.map((m) => m.id)) === JSON.stringify(ids));
}

const texts = (parts: readonly unknown[]) => parts.filter((p): p is vscode.LanguageModelTextPart => p instanceof vscode.LanguageModelTextPart).map((p) => p.value);

describe("language models: Wisp's models through vscode.lm", () => {
  let api: WispApi;
  let lm: LmConsumerApi;
  let server: ScriptedChatServer;
  let model: vscode.LanguageModelChat;

  before(async () => {
    api = await activateWisp();
    lm = await consumer();
    await resetWisp();
    server = await startScriptedChatServer({ key, models: [{ id: "scripted-chat", context_length: 8192 }, { id: "scripted-image", kind: "image" }] });
    await connectWisp(api, server.baseUrl, key);
    [model] = await modelsNamed(lm, ["scripted-chat"]);
  });
  after(async () => {
    await resetWisp();
    await server?.close();
  });

  it("lists the server's chat models (not its image models) with the context window it reports", async () => {
    assert.equal(model.vendor, "wisp");
    assert.equal(model.name, "scripted-chat");
    // 8192 of context, of which wisp.chat.maxTokens (1024) is kept for the answer.
    assert.equal(model.maxInputTokens, 8192 - 1024);
    assert.ok((await model.countTokens("word ".repeat(100))) > 0);
  });

  it("streams the answer's text in order, through Wisp's request to the server", async () => {
    const text = "Streaming arrives piece by piece, in the order the server sent it.";
    server.queue({ text });
    const answer = await lm.send(model, [User("Say something.")]);
    assert.equal(answer.error, undefined);
    assert.ok(answer.parts.length > 1, "the answer came in several parts");
    assert.equal(texts(answer.parts).join(""), text);
    const request = server.chatRequests.at(-1)!;
    assert.equal(request.model, "scripted-chat");
    assert.equal(request.stream, true);
    assert.deepEqual(request.messages, [{ role: "user", content: "Say something." }]);
  });

  it("returns a tool call as a tool-call part, and sends its result back as a tool message", async () => {
    const tools = [{ name: "get_weather", description: "The weather in a city.", inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } }];
    server.queue({ toolCalls: [{ id: "call_7", name: "get_weather", arguments: { city: "Oslo" } }] });
    const first = await lm.send(model, [User("Weather in Oslo?")], { tools });
    assert.equal(first.error, undefined);
    const calls = first.parts.filter((p): p is vscode.LanguageModelToolCallPart => p instanceof vscode.LanguageModelToolCallPart);
    assert.deepEqual(calls.map((c) => [c.callId, c.name, c.input]), [["call_7", "get_weather", { city: "Oslo" }]]);
    assert.deepEqual(server.chatRequests.at(-1)!.tools, [{ type: "function", function: { name: "get_weather", description: tools[0]!.description, parameters: tools[0]!.inputSchema } }]);

    server.queue({ text: "It is sunny in Oslo." });
    const result = new vscode.LanguageModelToolResultPart("call_7", [new vscode.LanguageModelTextPart("sunny, 21 °C")]);
    const second = await lm.send(model, [User("Weather in Oslo?"), Assistant([calls[0]!]), User([result])], { tools });
    assert.equal(texts(second.parts).join(""), "It is sunny in Oslo.");
    assert.deepEqual(server.chatRequests.at(-1)!.messages, [
      { role: "user", content: "Weather in Oslo?" },
      { role: "assistant", content: null, tool_calls: [{ id: "call_7", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } }] },
      { role: "tool", tool_call_id: "call_7", content: "sunny, 21 °C" },
    ]);
  });

  it("closes the server's request when the caller cancels", async () => {
    const aborted = server.aborted;
    server.queue({ text: "word ".repeat(400), tokensPerSecond: 20 });
    const answer = await lm.send(model, [User("Talk for a while.")], { cancelAfterParts: 1 });
    assert.equal(answer.parts.length, 1);
    await waitFor("the server to see the request closed", () => server.aborted, (n) => n === aborted + 1);
  });

  it("says why when the server cannot be reached, with no unhandled rejection", async () => {
    const down = await startScriptedChatServer({ key, models: [{ id: "going-away" }] });
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on("unhandledRejection", onRejection);
    try {
      await setBaseUrl(down.baseUrl);
      // Wisp's connection check of the new server is over (it may refresh the list once more), so
      // nothing lists the models again between closing the server and the request.
      await waitFor("Wisp's check of the new server", () => api.statusBar().tooltip, (tip) => tip.includes("ready (1 models)") && tip.includes(down.baseUrl));
      const [gone] = await modelsNamed(lm, ["going-away"]);
      await down.close();
      const answer = await lm.send(gone!, [User("Anyone there?")]);
      // Wisp's own message, as the panel shows it.
      assert.ok(answer.error?.message.startsWith(`Cannot reach ${down.baseUrl}: the connection was refused.`), JSON.stringify(answer.error));
      // Give a stray rejection the turn of the event loop it needs to be reported.
      await new Promise((done) => setImmediate(done));
      assert.deepEqual(rejections.filter((reason) => !fromAnotherExtension(reason)), []);
    } finally {
      process.off("unhandledRejection", onRejection);
      await setBaseUrl(server.baseUrl);
      [model] = await modelsNamed(lm, ["scripted-chat"]);
    }
  });

  it("follows a change of wisp.baseUrl: the editor is told and lists the other server's models", async () => {
    const other = await startScriptedChatServer({ key, models: [{ id: "other-chat", context_length: 2048 }] });
    try {
      const changes = lm.modelChanges();
      await setBaseUrl(other.baseUrl);
      // Without asking: Wisp tells the editor that its models changed.
      await waitFor("onDidChangeChatModels", () => lm.modelChanges(), (n) => n > changes);
      const [listed] = await modelsNamed(lm, ["other-chat"]);
      assert.equal(listed!.maxInputTokens, 2048 - 1024);
    } finally {
      await setBaseUrl(server.baseUrl);
      await other.close();
      [model] = await modelsNamed(lm, ["scripted-chat"]);
    }
  });

  it("lists nothing for a server with no chat model, or with wisp.languageModels.enabled off", async () => {
    const images = await startScriptedChatServer({ key, models: [{ id: "only-images", kind: "image" }] });
    const config = vscode.workspace.getConfiguration("wisp");
    try {
      await setBaseUrl(images.baseUrl);
      await modelsNamed(lm, []);
      await setBaseUrl(server.baseUrl);
      await modelsNamed(lm, ["scripted-chat"]);
      await config.update("languageModels.enabled", false, vscode.ConfigurationTarget.Global);
      await modelsNamed(lm, []);
    } finally {
      await config.update("languageModels.enabled", undefined, vscode.ConfigurationTarget.Global);
      await images.close();
      [model] = await modelsNamed(lm, ["scripted-chat"]);
    }
  });
});

describe("language models: the real local server", () => {
  it("answers a request through the provider on the generated model", async function () {
    this.timeout(180_000);
    await activateWisp();
    const lm = await consumer();
    await resetWisp();
    const server = await connectToLocalServer();
    try {
      const [local] = await modelsNamed(lm, [server.model]);
      const answer = await lm.send(local!, [User("Write a function that adds two numbers.")], { modelOptions: { max_tokens: 8, temperature: 0 } });
      assert.equal(answer.error, undefined);
      assert.ok(texts(answer.parts).join("").length > 0, "the model's answer has text");
    } finally {
      await resetWisp();
      await server.stop();
    }
  });
});
