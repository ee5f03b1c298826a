import assert from "node:assert/strict";
import type { ChatMessage } from "../../../../src/core/api/chat";
import { contextOverflow, overflowAdvice, ratioAfterOverflow } from "../../../../src/core/chat/context-overflow";

const messages: ChatMessage[] = [
  { role: "system", content: "s".repeat(100) },
  { role: "user", content: "u".repeat(400) },
  { role: "assistant", content: "a".repeat(400) },
  { role: "user", content: "q".repeat(100) },
];

describe("context overflow", () => {
  it("reads the prompt tokens vLLM, Wisp's server and OpenAI report", () => {
    const vllm = new Error("This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4800 in the messages, 200 in the completion).");
    assert.deepEqual(contextOverflow(vllm), { promptTokens: 4800 });
    const openai = Object.assign(new Error("This model's maximum context length is 8192 tokens. However, your messages resulted in 9001 tokens."), { code: "context_length_exceeded" });
    assert.deepEqual(contextOverflow(openai), { promptTokens: 9001 });
  });

  it("knows a refusal without a count (llama.cpp's server), and nothing else", () => {
    assert.deepEqual(contextOverflow(new Error("refused the request (400): the request exceeds the available context size, try increasing it")), {});
    assert.equal(contextOverflow(new Error("refused the request (400): temperature must be at most 2")), undefined);
  });

  it("learns the server's ratio, or raises the one that fell short, never lowering it", () => {
    // 1000 characters in 4 messages: 624 tokens less 24 for the messages is 0.6 a character.
    assert.equal(ratioAfterOverflow(messages, { promptTokens: 624 }), 0.6);
    assert.equal(ratioAfterOverflow(messages, {}, 0.3), 0.3 * 1.5);
    assert.equal(ratioAfterOverflow(messages, {}, 0.8), 1);
    assert.equal(ratioAfterOverflow(messages, { promptTokens: 224 }, 0.5), 0.5);
  });

  it("advises Retry only when there are earlier messages to leave out", () => {
    assert.match(overflowAdvice(messages), /^Retry sends fewer/);
    assert.match(overflowAdvice(messages.filter((m) => m.role === "system" || m.content.startsWith("q"))), /^Shorten the message/);
  });
});
