import assert from "node:assert/strict";
import { emptyChat, type AssistantTurn, type Chat } from "../../../../src/core/chat/conversation";
import { viewChat } from "../../../../src/core/chat/view-chat";

const agentTurn: AssistantTurn = {
  id: "a1",
  role: "assistant",
  text: "Done.",
  model: "m",
  status: "done",
  createdAt: 2,
  agent: {
    steps: [{ kind: "tool", id: "s1", tool: "read_file", title: "read src/cart.js", status: "done", path: "src/cart.js" }],
    files: [{ path: "src/cart.js", added: 1, removed: 1, created: false, review: "pending" }],
    end: "done",
    messages: [
      { role: "user", content: "fix it" },
      { role: "tool", tool_call_id: "c1", content: "src/cart.js (2 lines):\nexports.total = 1;\n".repeat(100) },
    ],
  },
};

describe("the chat as the view gets it", () => {
  it("leaves out an agent task's conversation with the model and keeps its steps, files and answer", () => {
    const chat: Chat = { ...emptyChat("c", 1), turns: [{ id: "u1", role: "user", text: "fix it", attachments: [], createdAt: 1 }, agentTurn] };
    const viewed = viewChat(chat);
    const turn = viewed.turns[1] as AssistantTurn;
    assert.deepEqual(turn.agent?.messages, []);
    assert.deepEqual({ ...turn, agent: { ...turn.agent!, messages: agentTurn.agent!.messages } }, agentTurn);
    assert.deepEqual(viewed.turns[0], chat.turns[0]);
    assert.equal((chat.turns[1] as AssistantTurn).agent?.messages.length, 2, "the stored chat keeps the conversation");
  });

  it("gives a chat without agent tasks back as it is", () => {
    const chat: Chat = { ...emptyChat("c", 1), turns: [{ id: "a", role: "assistant", text: "hi", model: "m", status: "done", createdAt: 1 }] };
    assert.equal(viewChat(chat), chat);
  });
});
