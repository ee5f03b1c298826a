import assert from "node:assert/strict";
import { lmChatRequest, toAgentMessages, type LmRequest } from "../../../../src/core/language-models/lm-request";

const base: LmRequest = { model: "wisp-tiny", messages: [{ role: "user", parts: [{ kind: "text", text: "Hi" }] }], toolsRequired: false, temperature: 0.2, maxTokens: 1024 };

describe("a request of the editor's chat as a /v1/chat/completions body", () => {
  it("sends the model, the messages, the panel's temperature, the model's answer budget and asks for usage", () => {
    assert.deepEqual(lmChatRequest(base), {
      model: "wisp-tiny",
      messages: [{ role: "user", content: "Hi" }],
      temperature: 0.2,
      max_tokens: 1024,
      stream_options: { include_usage: true },
    });
  });

  it("joins a message's text parts and keeps system messages", () => {
    const messages = toAgentMessages([
      { role: "system", parts: [{ kind: "text", text: "Be brief." }] },
      { role: "user", parts: [{ kind: "text", text: "One, " }, { kind: "text", text: "two." }] },
      { role: "assistant", parts: [{ kind: "text", text: "Three." }] },
    ]);
    assert.deepEqual(messages, [
      { role: "system", content: "Be brief." },
      { role: "user", content: "One, two." },
      { role: "assistant", content: "Three." },
    ]);
  });

  it("sends an assistant's tool calls with their input as JSON, and their results as tool messages before the user's words", () => {
    const messages = toAgentMessages([
      { role: "assistant", parts: [{ kind: "text", text: "Looking." }, { kind: "toolCall", callId: "c1", name: "read", input: { path: "a.ts" } }, { kind: "toolCall", callId: "c2", name: "list", input: {} }] },
      { role: "user", parts: [{ kind: "text", text: "And now?" }, { kind: "toolResult", callId: "c1", text: "export {}" }, { kind: "toolResult", callId: "c2", text: "a.ts" }] },
      { role: "assistant", parts: [{ kind: "toolCall", callId: "c3", name: "read", input: { path: "b.ts" } }] },
      { role: "user", parts: [{ kind: "toolResult", callId: "c3", text: "missing" }] },
    ]);
    assert.deepEqual(messages, [
      {
        role: "assistant",
        content: "Looking.",
        tool_calls: [
          { id: "c1", type: "function", function: { name: "read", arguments: '{"path":"a.ts"}' } },
          { id: "c2", type: "function", function: { name: "list", arguments: "{}" } },
        ],
      },
      { role: "tool", tool_call_id: "c1", content: "export {}" },
      { role: "tool", tool_call_id: "c2", content: "a.ts" },
      { role: "user", content: "And now?" },
      { role: "assistant", content: null, tool_calls: [{ id: "c3", type: "function", function: { name: "read", arguments: '{"path":"b.ts"}' } }] },
      { role: "tool", tool_call_id: "c3", content: "missing" },
    ]);
  });

  it("offers the tools (an empty object schema where none is given) and maps the tool mode", () => {
    const tools = [{ name: "read", description: "Read a file.", inputSchema: { type: "object", properties: { path: { type: "string" } } } }, { name: "now", description: "The time." }];
    const auto = lmChatRequest({ ...base, tools });
    assert.deepEqual(auto.tools, [
      { type: "function", function: { name: "read", description: "Read a file.", parameters: tools[0]!.inputSchema } },
      { type: "function", function: { name: "now", description: "The time.", parameters: { type: "object", properties: {} } } },
    ]);
    assert.equal(auto.tool_choice, "auto");
    assert.equal(lmChatRequest({ ...base, tools, toolsRequired: true }).tool_choice, "required");
    const none = lmChatRequest({ ...base, tools: [], toolsRequired: true });
    assert.equal("tools" in none || "tool_choice" in none, false);
  });

  it("passes the sampling fields of modelOptions on and ignores the rest", () => {
    const body = lmChatRequest({ ...base, modelOptions: { temperature: 0, max_tokens: 8, top_p: 0.9, stop: ["\n\n"], seed: 7, temperture: 1, max_tokens_typo: 3, presence_penalty: "high" } });
    assert.deepEqual(
      { temperature: body.temperature, max_tokens: body.max_tokens, top_p: body.top_p, stop: body.stop, seed: body.seed, presence_penalty: body.presence_penalty },
      { temperature: 0, max_tokens: 8, top_p: 0.9, stop: ["\n\n"], seed: 7, presence_penalty: undefined },
    );
    assert.equal("temperture" in body, false);
  });
});
