import assert from "node:assert/strict";
import type { AgentChatRequest } from "../../../../src/core/api/chat";
import { TokenEstimator } from "../../../../src/core/language-models/token-estimate";

describe("token estimate for the editor's chat", () => {
  it("estimates from characters until the server has counted a prompt", () => {
    const tokens = new TokenEstimator();
    assert.equal(tokens.count("m", "x".repeat(1000)), 300);
    // Each message adds what chat templates put around it; tool calls and results count too.
    const messages = tokens.count("m", [
      { role: "assistant", content: null, tool_calls: [{ id: "c", type: "function", function: { name: "read", arguments: '{"path":"a.ts"}' } }] },
      { role: "tool", tool_call_id: "c", content: "y".repeat(100) },
    ]);
    assert.equal(messages, 6 + Math.ceil(19 * 0.3) + 6 + 30);
  });

  it("learns each model's ratio from the prompt_tokens the server reports, tool definitions included", () => {
    const tokens = new TokenEstimator();
    const request: AgentChatRequest = {
      model: "dense",
      messages: [{ role: "user", content: "z".repeat(994) }],
      tools: [{ type: "function", function: { name: "t", description: "", parameters: {} } }],
    };
    const toolChars = JSON.stringify(request.tools).length;
    // The server counted one token per 2 characters of the messages and the tools.
    tokens.learn(request, { prompt_tokens: 12 + (994 + toolChars) / 2, completion_tokens: 1, total_tokens: 0 });
    assert.equal(tokens.count("dense", "a".repeat(1000)), 500);
    assert.equal(tokens.count("other", "a".repeat(1000)), 300);
  });
});
