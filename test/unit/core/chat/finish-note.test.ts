import assert from "node:assert/strict";
import { emptyTask } from "../../../../src/core/agent/agent-task";
import { finishNote } from "../../../../src/core/chat/finish-note";
import type { AssistantTurn } from "../../../../src/core/chat/conversation";

const agentTurn = (text: string): AssistantTurn => ({ id: "a", role: "assistant", text, model: "m", status: "done", createdAt: 0, agent: { ...emptyTask, end: "done" } });

describe("the note under an agent task's end", () => {
  it("says a tool call the model wrote as text did not run, and why, in each family's format", () => {
    const written = [
      '<tool_call>\n{"name": "read_file", "arguments": {"path": "src/app.ts"}}\n</tool_call>',
      '[TOOL_CALLS][{"name": "read_file", "arguments": {"path": "src/app.ts"}}]',
      '<|python_tag|>{"name": "read_file", "parameters": {"path": "src/app.ts"}}',
      '<function=read_file>{"path": "src/app.ts"}</function>',
      '{"name": "read_file", "parameters": {"path": "src/app.ts"}}',
      '```json\n{"name": "read_file", "arguments": {"path": "src/app.ts"}}\n```',
      "I'll read the file first.\n<tool_call>\n{\"name\": \"read_file\", \"arguments\": {}}\n</tool_call>",
      '<think>\nI should read it.\n</think>\n<tool_call>\n{"name": "read_file", "arguments": {}}\n</tool_call>',
    ];
    for (const text of written) assert.match(finishNote(agentTurn(text)), /wrote a tool call as text, so no tool ran .*--jinja/, text);
  });

  it("says nothing of an answer that only talks about JSON or tools", () => {
    assert.equal(finishNote(agentTurn("Done: read_file showed the bug, and I fixed it.")), "");
    assert.equal(finishNote(agentTurn('The config is now:\n```json\n{"name": "app", "version": "1.0.0"}\n```')), "");
    // Only in a task: a chat answer may show the format.
    assert.equal(finishNote({ ...agentTurn("Hermes writes <tool_call>…</tool_call>."), agent: undefined }), "");
  });
});
