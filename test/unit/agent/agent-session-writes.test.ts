import assert from "node:assert/strict";
import { AgentSession, type AgentSetup, type AgentTools } from "../../../src/core/agent/agent-session";
import type { AgentStreamDelta } from "../../../src/core/agent/agent-loop";
import type { ToolStep } from "../../../src/core/agent/agent-task";
import { agentTools } from "../../../src/core/agent/tool-schemas";
import { ChatStore, chatKey } from "../../../src/core/chat/chat-store";
import type { AssistantTurn, Chat } from "../../../src/core/chat/conversation";
import { MemoryStorage, counters } from "../core/chat/memory-storage";

const setup: AgentSetup = { model: "m", systemPrompt: "You are an agent.", temperature: 0, maxTokens: 100, contextTokens: 8192, maxSteps: 50 };
const steps = 20;

/** A read that reports its step as read_file does: running, its title, done. */
const readTools: AgentTools = {
  definitions: async () => agentTools,
  validate: () => ({ ok: true, args: {} }),
  run: async (_call, _signal, step) => {
    step.update({ tool: "read_file", title: "read_file", status: "running" });
    step.update({ title: "read src/a.js", path: "src/a.js" });
    step.update({ status: "done" });
    return { content: "src/a.js (1 lines):\nexports.a = 1;" };
  },
};

const read = (i: number): AgentStreamDelta[] => [{ content: "", toolCalls: [{ index: 0, id: `c${i}`, function: { name: "read_file", arguments: `{"path":"src/a.js","start_line":${1 + (i % 2)}}` } }] }];

describe("agent session: storing a task", () => {
  it("stores step updates in batches (not the whole chat on every update) and the task's end at once", async () => {
    const storage = new MemoryStorage();
    const ids = counters();
    const store = new ChatStore(storage, ids);
    const answers = [...Array.from({ length: steps }, (_, i) => read(i)), [{ content: "Read it." }]];
    const session = new AgentSession({
      store,
      stream: async function* () {
        for (const delta of answers.shift() ?? []) yield delta;
      },
      setup: async () => setup,
      tools: async () => readTools,
      events: { changed: () => undefined, delta: () => undefined, ended: () => undefined, notice: () => undefined },
      newId: ids.newId,
      now: ids.now,
    });
    const before = storage.writes;
    await session.start("read a.js");
    // Each write stores the whole chat (every file read so far): a write per step update grew with the task.
    assert.ok(storage.writes - before <= 8, `${storage.writes - before} writes for a ${steps}-step task`);
    // Without a flush: the ended task is in storage already, every step with it.
    const stored = storage.get(chatKey(store.active().id)) as Chat;
    const turn = stored.turns.at(-1) as AssistantTurn;
    assert.equal(turn.status, "done");
    assert.equal(turn.text, "Read it.");
    assert.deepEqual(turn.agent!.steps.map((s) => (s as ToolStep).status), Array<string>(steps).fill("done"));
  });
});
