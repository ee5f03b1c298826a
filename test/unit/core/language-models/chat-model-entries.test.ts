import assert from "node:assert/strict";
import type { ModelInfo } from "../../../../src/core/api/models";
import { chatModelEntries } from "../../../../src/core/language-models/chat-model-entries";

const model = (id: string, extra: Partial<ModelInfo> = {}): ModelInfo => ({ id, object: "model", created: 0, owned_by: "wisp", ...extra });
const settings = { server: "127.0.0.1:8765/v1", contextTokens: 0, maxTokens: 1024 };

describe("chat model entries (the editor's model picker)", () => {
  it("offers the chat models only: not image models, nor image or embedding models of servers that do not say a kind", () => {
    const models = [model("wisp-tiny", { kind: "text", context_length: 4096 }), model("wisp-sd", { kind: "image" }), model("text-embedding-3-small"), model("llama-3.1-8b")];
    assert.deepEqual(chatModelEntries(models, settings).map((e) => e.id), ["wisp-tiny", "llama-3.1-8b"]);
    assert.deepEqual(chatModelEntries([model("wisp-sd", { kind: "image" })], settings), []);
  });

  it("splits the context window the server reports into prompt and answer (wisp.chat.maxTokens, at most half)", () => {
    const [large, small] = chatModelEntries([model("large", { context_length: 32768 }), model("small", { context_length: 1024 })], settings);
    assert.deepEqual([large!.maxInputTokens, large!.maxOutputTokens], [32768 - 1024, 1024]);
    assert.deepEqual([small!.maxInputTokens, small!.maxOutputTokens], [512, 512]);
  });

  it("takes wisp.chat.contextTokens over the server's figure, and assumes 4096 where neither says", () => {
    assert.equal(chatModelEntries([model("m", { context_length: 32768 })], { ...settings, contextTokens: 8192 })[0]!.maxInputTokens, 8192 - 1024);
    const [unknown] = chatModelEntries([model("m")], settings);
    assert.equal(unknown!.maxInputTokens + unknown!.maxOutputTokens, 4096);
    assert.match(unknown!.tooltip, /4096 tokens of context \(assumed\)/);
  });

  it("says tool calling unless the server lists the model's parameters without tools; never image input", () => {
    const entries = chatModelEntries([model("said-nothing"), model("with-tools", { tools: true }), model("without-tools", { tools: false })], settings);
    assert.deepEqual(entries.map((e) => [e.id, e.capabilities]), [
      ["said-nothing", { toolCalling: true, imageInput: false }],
      ["with-tools", { toolCalling: true, imageInput: false }],
      ["without-tools", { toolCalling: false, imageInput: false }],
    ]);
  });

  it("names the server beside each model", () => {
    const [entry] = chatModelEntries([model("wisp-tiny", { context_length: 4096 })], settings);
    assert.equal(entry!.name, "wisp-tiny");
    assert.equal(entry!.detail, "Wisp · 127.0.0.1:8765/v1");
  });
});
