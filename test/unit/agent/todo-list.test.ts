import assert from "node:assert/strict";
import type { AgentMessage } from "../../../src/core/api/chat";
import type { Chat } from "../../../src/core/chat/conversation";
import { ToolArgValidator } from "../../../src/core/agent/tool-args";
import { agentTools } from "../../../src/core/agent/tool-schemas";
import {
  chatTodos,
  maxTodos,
  openTodosText,
  stepsSinceTodoUpdate,
  todoListText,
  todoReminder,
  todoReminderSteps,
  todoToolName,
  updateTodos,
  type TodoItem,
} from "../../../src/core/agent/todo-list";

const plan: TodoItem[] = [
  { id: 1, title: "Read the cart code", status: "completed" },
  { id: 2, title: "Fix total", description: "multiply by qty", status: "in-progress" },
  { id: 3, title: "Run the tests", status: "not-started" },
];

const write = (current: readonly TodoItem[], todoList: unknown) => updateTodos(current, { todoList });
const error = (result: ReturnType<typeof updateTodos>) => (result.ok ? "(accepted)" : result.error);

describe("core/agent: the todo list (manage_todo_list)", () => {
  it("is one of the agent's tools, and its schema takes Copilot's shape (the whole list, id/title/description/status)", () => {
    const tool = agentTools.find((t) => t.function.name === todoToolName);
    assert.ok(tool, "offered with the workspace tools");
    const validator = new ToolArgValidator(agentTools);
    assert.deepEqual(validator.validate(todoToolName, JSON.stringify({ todoList: plan })), { ok: true, args: { todoList: plan } });
    assert.deepEqual(validator.validate(todoToolName, JSON.stringify({ operation: "write", todoList: [] })).ok, true);
    const bad = validator.validate(todoToolName, JSON.stringify({ todoList: [{ id: 1, title: "x", status: "done" }] }));
    assert.equal(bad.ok, false);
    assert.match((bad as { error: string }).error, /"todoList\[0\]\.status" must be one of "not-started", "in-progress", "completed"/);
  });

  it("a write replaces the whole list; the row says what changed and the model reads the list back", () => {
    const created = write([], plan.map((t) => ({ ...t, status: "not-started" })));
    assert.ok(created.ok);
    assert.equal(created.title, "created 3 todos");
    assert.equal(created.content, "Todo list saved: 0 of 3 completed.\n- [ ] 1. Read the cart code\n- [ ] 2. Fix total\n  multiply by qty\n- [ ] 3. Run the tests");

    const started = write(created.todos, created.todos.map((t) => (t.id === 1 ? { ...t, status: "in-progress" } : t)));
    assert.ok(started.ok);
    assert.equal(started.title, "started (1/3) Read the cart code");

    const completed = write(started.todos, started.todos.map((t) => (t.id === 1 ? { ...t, status: "completed" } : t)));
    assert.ok(completed.ok);
    assert.equal(completed.title, "completed (1/3) Read the cart code");
    assert.match(completed.content, /^Todo list saved: 1 of 3 completed\./);

    const added = write(completed.todos, [...completed.todos, { id: 4, title: "Update the changelog", status: "not-started" }]);
    assert.ok(added.ok);
    assert.equal(added.title, "added 1 todo");
    assert.deepEqual(added.todos.map((t) => t.id), [1, 2, 3, 4]);

    const cleared = write(added.todos, []);
    assert.ok(cleared.ok);
    assert.deepEqual([cleared.title, cleared.todos, cleared.content], ["cleared the todo list", [], "The todo list is now empty."]);
  });

  it("trims titles and descriptions, drops an empty description, and reads the list with operation read", () => {
    const result = write([], [{ id: 7, title: "  Fix total  ", description: "   ", status: "not-started" }]);
    assert.ok(result.ok);
    assert.deepEqual(result.todos, [{ id: 7, title: "Fix total", status: "not-started" }]);
    const read = updateTodos(plan, { operation: "read" });
    assert.ok(read.ok);
    assert.equal(read.todos, plan, "read changes nothing");
    assert.match(read.content, /^The todo list:\n- \[x\] 1\. Read the cart code\n- \[-\] 2\. Fix total/);
    assert.equal((updateTodos([], { operation: "read" }) as { content: string }).content, "The todo list is empty.");
  });

  it("two items in progress are kept, with a warning the model reads (as Copilot's tool does)", () => {
    const result = write(plan, plan.map((t) => ({ ...t, status: "in-progress" })));
    assert.ok(result.ok);
    assert.equal(result.todos.filter((t) => t.status === "in-progress").length, 3);
    assert.match(result.content, /\nWarning: 3 items are in-progress \(1, 2, 3\): work on one at a time/);
  });

  it("refuses bad input with an error that says what to send, and keeps the list as it was", () => {
    const cases: [unknown, RegExp][] = [
      [undefined, /^"todoList" is required: send the complete list/],
      ["1. Fix total", /^"todoList" must be an array/],
      [[null], /^todoList\[0\] must be an object/],
      [[{ id: 1, title: "a", status: "completed" }, { id: 1, title: "b", status: "not-started" }], /^id 1 is used by two items/],
      [[{ id: "1", title: "a", status: "completed" }], /^todoList\[0\]\.id must be a whole number from 1, not "1"/],
      [[{ id: 0, title: "a", status: "completed" }], /^todoList\[0\]\.id must be a whole number from 1, not 0/],
      [[{ id: 1.5, title: "a", status: "completed" }], /whole number/],
      [[{ id: 1, title: "  ", status: "completed" }], /^todoList\[0\]\.title must be a text/],
      [[{ id: 1, title: "x".repeat(201), status: "completed" }], /title is 201 characters long/],
      [[{ id: 1, title: "a", status: "done" }], /^todoList\[0\]\.status must be one of "not-started", "in-progress", "completed", not "done"/],
      [[{ id: 1, title: "a", status: "completed", priority: "high" }], /has "priority": an item has only id, title, description and status/],
      [[{ id: 1, title: "a", description: 3, status: "completed" }], /description must be a text/],
      [Array.from({ length: maxTodos + 1 }, (_, i) => ({ id: i + 1, title: `step ${i + 1}`, status: "not-started" })), new RegExp(`has ${maxTodos + 1} items; at most ${maxTodos}`)],
    ];
    for (const [todoList, expected] of cases) assert.match(error(write(plan, todoList)), expected, JSON.stringify(todoList)?.slice(0, 80));
    assert.match(error(updateTodos(plan, { operation: "delete" })), /^"operation" must be "write" or "read", not "delete"/);
  });

  it("openTodosText: the items not completed, for a summary of the conversation", () => {
    assert.equal(openTodosText(plan), "Open todos:\n- [-] 2. Fix total\n  multiply by qty\n- [ ] 3. Run the tests");
    assert.equal(openTodosText(plan.map((t) => ({ ...t, status: "completed" }))), "");
    assert.equal(openTodosText(undefined), "");
    assert.equal(todoListText([{ id: 1, title: "a", description: "line one\nline two", status: "not-started" }]), "- [ ] 1. a\n  line one\n  line two");
  });

  it("counts the tool rounds since the last update, and reminds only while items are open and after enough rounds", () => {
    const call = (name: string): AgentMessage => ({ role: "assistant", content: null, tool_calls: [{ id: name, type: "function", function: { name, arguments: "{}" } }] });
    const result: AgentMessage = { role: "tool", tool_call_id: "x", content: "ok" };
    const rounds = (n: number) => Array.from({ length: n }, () => [call("read_file"), result]).flat();
    const task: AgentMessage = { role: "user", content: "fix it" };
    assert.equal(stepsSinceTodoUpdate([task, ...rounds(3)]), 3, "no update yet: every round counts");
    const updated = [task, call(todoToolName), result, ...rounds(todoReminderSteps - 1)];
    assert.equal(stepsSinceTodoUpdate(updated), todoReminderSteps - 1);
    assert.equal(todoReminder(plan, updated), undefined, "not yet");
    const late = [...updated, ...rounds(1)];
    assert.match(todoReminder(plan, late)!, new RegExp(`^\\[Reminder: ${todoReminderSteps} tool rounds since the todo list was last updated\\..*\\n- \\[x\\] 1\\. Read the cart code`, "s"));
    assert.equal(todoReminder(plan.map((t) => ({ ...t, status: "completed" })), late), undefined, "nothing open: no reminder");
    assert.equal(todoReminder(undefined, late), undefined, "no list: no reminder");
  });

  it("chatTodos: the list of the conversation's latest task that kept one", () => {
    const turn = (id: string, todos?: TodoItem[]) => ({ id, role: "assistant" as const, text: "", model: "m", status: "done" as const, createdAt: 1, agent: { steps: [], files: [], messages: [], ...(todos ? { todos } : {}) } });
    const chat: Chat = { id: "c", title: "t", createdAt: 1, updatedAt: 1, pending: [], turns: [turn("a", plan), { id: "q", role: "user", text: "more", attachments: [], createdAt: 1 }, turn("b")] };
    assert.equal(chatTodos(chat), plan);
    assert.deepEqual(chatTodos({ ...chat, turns: [] }), []);
  });
});
