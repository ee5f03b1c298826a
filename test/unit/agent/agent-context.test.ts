import assert from "node:assert/strict";
import type { AgentMessage } from "../../../src/core/api/chat";
import { fitAgentMessages } from "../../../src/core/agent/agent-context";

const lines = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag} line ${i + 1} ${"x".repeat(30)}`).join("\n");

describe("agent context fitting", () => {
  const conversation: AgentMessage[] = [
    { role: "system", content: "You are an agent." },
    { role: "user", content: "fix it" },
    { role: "assistant", content: null, tool_calls: [{ id: "1", type: "function", function: { name: "read_file", arguments: '{"path":"a"}' } }] },
    { role: "tool", tool_call_id: "1", content: lines(200, "old") },
    { role: "assistant", content: null, tool_calls: [{ id: "2", type: "function", function: { name: "read_file", arguments: '{"path":"b"}' } }] },
    { role: "tool", tool_call_id: "2", content: lines(200, "new") },
  ];

  it("leaves a conversation that fits alone", () => {
    assert.deepEqual(fitAgentMessages(conversation, { contextTokens: 100_000, maxTokens: 1000, tokensPerChar: 0.3, toolsTokens: 500 }), conversation);
  });

  it("shortens the older tool result first, with a note, and keeps the newest whole", () => {
    const fitted = fitAgentMessages(conversation, { contextTokens: 5000, maxTokens: 500, tokensPerChar: 0.3, toolsTokens: 500 });
    const [older, newer] = fitted.filter((m) => m.role === "tool").map((m) => m.content);
    assert.equal(newer, (conversation[5] as { content: string }).content);
    assert.match(older!, /^old line 1 /);
    assert.match(older!, /\[Shortened to fit the context window: the first \d+ of 200 lines kept\.\]$/);
    assert.ok(older!.length < (conversation[3] as { content: string }).content.length);
    assert.deepEqual(fitted.filter((m) => m.role !== "tool"), conversation.filter((m) => m.role !== "tool"));
  });

  it("leaves an old result out entirely, saying so, when nothing useful of it fits", () => {
    const fitted = fitAgentMessages(conversation, { contextTokens: 4000, maxTokens: 500, tokensPerChar: 0.3, toolsTokens: 1200 });
    const [older] = fitted.filter((m) => m.role === "tool").map((m) => m.content);
    assert.match(older!, /^\[This earlier result \(200 lines\) was left out/);
  });
});
