import assert from "node:assert/strict";
import { AgentSession, type AgentTools } from "../../../src/core/agent/agent-session";
import type { AgentStreamDelta } from "../../../src/core/agent/agent-loop";
import type { ToolStep } from "../../../src/core/agent/agent-task";
import { todoReminderSteps, todoToolName, type TodoItem } from "../../../src/core/agent/todo-list";
import { ToolArgValidator } from "../../../src/core/agent/tool-args";
import { agentTools } from "../../../src/core/agent/tool-schemas";
import type { AgentChatRequest, AgentMessage } from "../../../src/core/api/chat";
import { ChatStore } from "../../../src/core/chat/chat-store";
import type { AssistantTurn } from "../../../src/core/chat/conversation";
import { MemoryStorage, counters } from "../core/chat/memory-storage";

const call = (name: string, args: unknown, id = name): AgentStreamDelta[] => [{ content: "", toolCalls: [{ index: 0, id, function: { name, arguments: JSON.stringify(args) } }] }];
const list = (...statuses: TodoItem["status"][]): TodoItem[] => statuses.map((status, i) => ({ id: i + 1, title: `Step ${i + 1}`, status }));

function harness(answers: AgentStreamDelta[][]) {
  const storage = new MemoryStorage();
  const ids = counters();
  const store = new ChatStore(storage, ids);
  const requests: AgentChatRequest[] = [];
  const workspaceRuns: string[] = [];
  const validator = new ToolArgValidator(agentTools);
  const tools: AgentTools = {
    definitions: async () => agentTools,
    validate: (c) => validator.validate(c.function.name, c.function.arguments),
    run: async (c, _signal, step) => {
      workspaceRuns.push(c.name);
      step.update({ tool: c.name, title: `read ${String(c.args.path)}`, status: "done" });
      return { content: "file text" };
    },
  };
  const session = new AgentSession({
    store,
    stream: async function* (body) {
      requests.push(structuredClone(body));
      for (const delta of answers.shift() ?? [{ content: "done" }]) yield delta;
    },
    setup: async () => ({ model: "m", systemPrompt: "You are an agent.", temperature: 0, maxTokens: 100, contextTokens: 32_000, maxSteps: 25 }),
    tools: async () => tools,
    events: { changed: () => undefined, delta: () => undefined, ended: () => undefined, notice: () => undefined },
    newId: ids.newId,
    now: ids.now,
  });
  const answer = () => store.active().turns.at(-1) as AssistantTurn;
  const steps = () => answer().agent!.steps.filter((s): s is ToolStep => s.kind === "tool");
  return { storage, store, session, answer, steps, requests, workspaceRuns };
}

const last = (request: AgentChatRequest): AgentMessage => request.messages.at(-1)!;

describe("agent session: the todo list", () => {
  it("the session keeps the list with the task, shows each update as a row, and never runs it as a workspace tool", async () => {
    const h = harness([
      call(todoToolName, { todoList: list("in-progress", "not-started") }),
      call("read_file", { path: "a.js" }),
      call(todoToolName, { todoList: list("completed", "in-progress") }),
      [{ content: "Done." }],
    ]);
    await h.session.start("two steps");
    assert.deepEqual(h.answer().agent!.todos, list("completed", "in-progress"));
    assert.deepEqual(h.steps().map((s) => [s.tool, s.title, s.status]), [
      [todoToolName, "created 2 todos", "done"],
      ["read_file", "read a.js", "done"],
      [todoToolName, "started (2/2) Step 2", "done"],
    ]);
    assert.deepEqual(h.workspaceRuns, ["read_file"]);
    assert.match(String(last(h.requests[1]!).content), /^Todo list saved: 0 of 2 completed\.\n- \[-\] 1\. Step 1\n- \[ \] 2\. Step 2$/, "the model reads the list back");
    // Kept with the chat: a new store on the same storage (a reload) has it.
    await h.store.flush();
    const reopened = new ChatStore(h.storage, counters());
    assert.deepEqual((reopened.active().turns.at(-1) as AssistantTurn).agent!.todos, list("completed", "in-progress"));
  });

  it("a bad list is refused with why: the model reads the error, the row says failed, the list stays", async () => {
    const h = harness([
      call(todoToolName, { todoList: list("not-started") }, "c1"),
      call(todoToolName, { todoList: [{ id: 1, title: "a", status: "not-started" }, { id: 1, title: "b", status: "not-started" }] }, "c2"),
      call(todoToolName, { todoList: [{ id: 1, title: "a", status: "started" }] }, "c3"),
      [{ content: "ok" }],
    ]);
    await h.session.start("go");
    assert.deepEqual(h.answer().agent!.todos, list("not-started"));
    assert.equal(last(h.requests[2]!).content, "Error: id 1 is used by two items: each item needs its own id.");
    assert.match(String(last(h.requests[3]!).content), /^Error: Invalid arguments for manage_todo_list: "todoList\[0\]\.status" must be one of/);
    assert.deepEqual(h.steps().map((s) => s.status), ["done", "failed", "failed"]);
    assert.equal(h.steps()[1]!.note, "id 1 is used by two items: each item needs its own id.");
  });

  it(`after ${todoReminderSteps} rounds without an update while items are open, the next request ends with a reminder (only that request)`, async () => {
    const reads = Array.from({ length: todoReminderSteps }, (_, i) => call("read_file", { path: `f${i}.js` }, `r${i}`));
    const h = harness([call(todoToolName, { todoList: list("in-progress", "not-started") }), ...reads, call(todoToolName, { todoList: list("completed", "completed") }), ...reads, [{ content: "done" }]]);
    await h.session.start("long task");
    const reminded = h.requests.map((r) => /^\[Reminder: /.test(String(last(r).content)));
    // Request 0 asks; 1 reads the list back; 2..6 follow reads 1..5; the 7th (after 5 reads) is reminded.
    assert.deepEqual(reminded.map((r, i) => (r ? i : -1)).filter((i) => i >= 0), [todoReminderSteps + 1]);
    const reminder = last(h.requests[todoReminderSteps + 1]!);
    assert.equal(reminder.role, "user");
    assert.match(String(reminder.content), /- \[-\] 1\. Step 1\n- \[ \] 2\. Step 2\]$/);
    // Not stored: the conversation kept has no reminder, so the next request's prefix is the same.
    assert.ok(!h.answer().agent!.messages.some((m) => String(m.content).startsWith("[Reminder")));
    assert.equal(h.requests.length, 2 * todoReminderSteps + 3, "all completed: no reminder however long it goes on");
  });

  it("the next request carries a list with open items (shown and told to the model); a finished list is not carried", async () => {
    const h = harness([call(todoToolName, { todoList: list("completed", "not-started") }), [{ content: "stopping here" }], [{ content: "carried on" }]]);
    await h.session.start("first");
    await h.session.start("go on");
    assert.deepEqual(h.answer().agent!.todos, list("completed", "not-started"), "the new task shows the open list");
    const task = h.requests[2]!.messages[1]!;
    assert.equal(task.role, "user");
    assert.equal(task.content, "go on\n\n[Your todo list from earlier in this conversation; update it with manage_todo_list as you work:\n- [x] 1. Step 1\n- [ ] 2. Step 2]");
    assert.equal(h.store.active().turns.at(-2)!.text, "go on", "the user's message as they wrote it");

    const done = harness([call(todoToolName, { todoList: list("completed") }), [{ content: "finished" }], [{ content: "next" }]]);
    await done.session.start("first");
    await done.session.start("something else");
    assert.equal(done.answer().agent!.todos, undefined);
    assert.equal(done.requests[2]!.messages[1]!.content, "something else");
  });
});
