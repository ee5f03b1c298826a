import assert from "node:assert/strict";
import type { AgentStreamDelta } from "../../../../src/core/agent/agent-loop";
import type { Usage } from "../../../../src/core/api/usage";
import { lmResponseParts, type LmResponsePart } from "../../../../src/core/language-models/lm-response";

async function* stream(deltas: AgentStreamDelta[]): AsyncIterable<AgentStreamDelta> {
  yield* deltas;
}

async function collect(deltas: AgentStreamDelta[]): Promise<{ parts: LmResponsePart[]; usage: Usage[] }> {
  const parts: LmResponsePart[] = [];
  const usage: Usage[] = [];
  for await (const part of lmResponseParts(stream(deltas), (u) => usage.push(u))) parts.push(part);
  return { parts, usage };
}

describe("a streamed answer as the editor's response parts", () => {
  it("gives text as it arrives, in order, and reports the server's usage", async () => {
    const usage = { prompt_tokens: 12, completion_tokens: 2, total_tokens: 14 };
    const { parts, usage: reported } = await collect([{ content: "Hel" }, { content: "" }, { content: "lo" }, { content: "", finishReason: "stop" }, { content: "", usage }]);
    assert.deepEqual(parts, [{ kind: "text", text: "Hel" }, { kind: "text", text: "lo" }]);
    assert.deepEqual(reported, [usage]);
  });

  it("reassembles tool calls streamed in pieces and parses their arguments, after the text", async () => {
    const { parts } = await collect([
      { content: "Let me look." },
      { content: "", toolCalls: [{ index: 0, id: "call_a", function: { name: "read", arguments: '{"pa' } }] },
      { content: "", toolCalls: [{ index: 1, id: "call_b", function: { name: "list", arguments: "" } }] },
      { content: "", toolCalls: [{ index: 0, function: { arguments: 'th":"a.ts"}' } }] },
      { content: "", finishReason: "tool_calls" },
    ]);
    assert.deepEqual(parts, [
      { kind: "text", text: "Let me look." },
      { kind: "toolCall", callId: "call_a", name: "read", input: { path: "a.ts" } },
      { kind: "toolCall", callId: "call_b", name: "list", input: {} },
    ]);
  });

  it("ends with a readable error when a call's arguments are not a JSON object", async () => {
    await assert.rejects(collect([{ content: "", toolCalls: [{ index: 0, id: "c", function: { name: "read", arguments: "{path: a.ts" } }] }]), /the tool read with arguments that are not valid JSON/);
    await assert.rejects(collect([{ content: "", toolCalls: [{ index: 0, id: "c", function: { name: "read", arguments: '["a.ts"]' } }] }]), /the tool read with arguments that are not a JSON object/);
  });
});
