/**
 * The agent's todo list: the `manage_todo_list` tool (the whole list in every call, as Copilot's
 * agent sends it), its checks, the row it makes in the transcript, and the text the model reads
 * (the tool's result, the list carried into the next request, the reminder of a long task that
 * left it alone). Plain data: the list is kept with the task in the chat.
 */
import type { AgentMessage, ChatTool } from "../api/chat";
import type { Chat } from "../chat/conversation";

export type TodoStatus = "not-started" | "in-progress" | "completed";

export interface TodoItem {
  /** The model's number for it (1, 2, 3 ...), unique in the list. */
  readonly id: number;
  readonly title: string;
  readonly description?: string;
  readonly status: TodoStatus;
}

export const todoToolName = "manage_todo_list";
/** Bounds on what the model may store: the list is drawn in the chat and sent with every request. */
export const maxTodos = 50;
export const maxTodoTitle = 200;
export const maxTodoDescription = 2_000;
/** Tool rounds without an update, while items are open, before the model is reminded of the list. */
export const todoReminderSteps = 5;

const statuses: readonly string[] = ["not-started", "in-progress", "completed"] satisfies TodoStatus[];

export const todoTool: ChatTool = {
  type: "function",
  function: {
    name: todoToolName,
    description:
      "Keep a todo list of the task's steps, shown to the user while you work. Use it for work of several steps: " +
      "write the list first, mark one item in-progress before you start on it and completed as soon as it is done. " +
      "Send the complete list in every call (every item, changed or not): it replaces the previous one. Skip it for a task of one or two steps.",
    parameters: {
      type: "object",
      properties: {
        todoList: {
          type: "array",
          description: "The complete list, in order.",
          items: {
            type: "object",
            properties: {
              id: { type: "integer", minimum: 1, description: "The item's number, unique in the list: 1, 2, 3 ..." },
              title: { type: "string", description: "What to do, in a few words." },
              description: { type: "string", description: "Optional details: files, functions, how to check it." },
              status: { type: "string", enum: [...statuses], description: "not-started, in-progress (the item you work on now: one at a time) or completed." },
            },
            required: ["id", "title", "status"],
            additionalProperties: false,
          },
        },
        operation: { type: "string", enum: ["write", "read"], description: "write (the default) replaces the list with todoList; read returns the list as it is." },
      },
      required: [],
      additionalProperties: false,
    },
  },
};

export type TodoUpdate =
  | { readonly ok: true; readonly todos: readonly TodoItem[]; readonly title: string; readonly content: string }
  | { readonly ok: false; readonly error: string };

/**
 * The list after a call, with the transcript row's title and the result the model reads; or why
 * the call was refused (the list is then unchanged). Several items in progress are accepted with a
 * warning, as Copilot's tool does: a soft rule the model is reminded of, not a reason to lose the list.
 */
export function updateTodos(current: readonly TodoItem[], args: Record<string, unknown>): TodoUpdate {
  if (args.operation !== undefined && args.operation !== "write" && args.operation !== "read") {
    return { ok: false, error: `"operation" must be "write" or "read", not ${JSON.stringify(args.operation)}.` };
  }
  if (args.operation === "read") {
    return { ok: true, todos: current, title: "read the todo list", content: current.length === 0 ? "The todo list is empty." : `The todo list:\n${todoListText(current)}` };
  }
  const parsed = parseTodoList(args.todoList);
  if (!parsed.ok) return parsed;
  const todos = parsed.todos;
  const warnings: string[] = [];
  const working = todos.filter((t) => t.status === "in-progress");
  if (working.length > 1) warnings.push(`${working.length} items are in-progress (${working.map((t) => t.id).join(", ")}): work on one at a time, and mark the others not-started or completed.`);
  const done = todos.filter((t) => t.status === "completed").length;
  const content = todos.length === 0 ? "The todo list is now empty." : `Todo list saved: ${done} of ${todos.length} completed.\n${todoListText(todos)}`;
  return { ok: true, todos, title: rowTitle(current, todos), content: [content, ...warnings.map((w) => `Warning: ${w}`)].join("\n") };
}

function parseTodoList(value: unknown): { ok: true; todos: TodoItem[] } | { ok: false; error: string } {
  const fail = (error: string) => ({ ok: false as const, error });
  if (value === undefined) return fail(`"todoList" is required: send the complete list of items ({id, title, status}), every item in every call.`);
  if (!Array.isArray(value)) return fail(`"todoList" must be an array of items ({id, title, status}).`);
  if (value.length > maxTodos) return fail(`The list has ${value.length} items; at most ${maxTodos} are kept. Group small steps into larger ones.`);
  const todos: TodoItem[] = [];
  const seen = new Set<number>();
  for (const [index, item] of value.entries()) {
    const where = `todoList[${index}]`;
    if (typeof item !== "object" || item === null || Array.isArray(item)) return fail(`${where} must be an object {id, title, status}.`);
    const { id, title, description, status } = item as Record<string, unknown>;
    const extra = Object.keys(item).filter((k) => !["id", "title", "description", "status"].includes(k));
    if (extra.length > 0) return fail(`${where} has ${extra.map((k) => `"${k}"`).join(", ")}: an item has only id, title, description and status.`);
    if (typeof id !== "number" || !Number.isSafeInteger(id) || id < 1) return fail(`${where}.id must be a whole number from 1, not ${JSON.stringify(id)}.`);
    if (seen.has(id)) return fail(`id ${id} is used by two items: each item needs its own id.`);
    seen.add(id);
    if (typeof title !== "string" || title.trim() === "") return fail(`${where}.title must be a text saying what to do.`);
    if (title.length > maxTodoTitle) return fail(`${where}.title is ${title.length} characters long; keep it under ${maxTodoTitle} and put details in description.`);
    if (description !== undefined && typeof description !== "string") return fail(`${where}.description must be a text.`);
    if (typeof description === "string" && description.length > maxTodoDescription) return fail(`${where}.description is longer than ${maxTodoDescription} characters.`);
    if (typeof status !== "string" || !statuses.includes(status)) return fail(`${where}.status must be one of ${statuses.map((s) => `"${s}"`).join(", ")}, not ${JSON.stringify(status)}.`);
    const trimmed = typeof description === "string" ? description.trim() : "";
    todos.push({ id, title: title.trim(), ...(trimmed !== "" ? { description: trimmed } : {}), status: status as TodoStatus });
  }
  return { ok: true, todos };
}

/** The row of the transcript: what changed, as the user reads it. */
function rowTitle(before: readonly TodoItem[], after: readonly TodoItem[]): string {
  if (after.length === 0) return before.length === 0 ? "updated the todo list" : "cleared the todo list";
  if (before.length === 0) return `created ${after.length} todo${after.length === 1 ? "" : "s"}`;
  const old = new Map(before.map((t) => [t.id, t]));
  const position = (item: TodoItem) => `(${after.indexOf(item) + 1}/${after.length})`;
  const started = after.find((t) => t.status === "in-progress" && old.get(t.id)?.status !== "in-progress");
  if (started) return `started ${position(started)} ${started.title}`;
  const completed = after.find((t) => t.status === "completed" && old.has(t.id) && old.get(t.id)!.status !== "completed");
  if (completed) return `completed ${position(completed)} ${completed.title}`;
  const added = after.filter((t) => !old.has(t.id)).length;
  if (added > 0) return `added ${added} todo${added === 1 ? "" : "s"}`;
  return "updated the todo list";
}

const marks: Record<TodoStatus, string> = { "not-started": "[ ]", "in-progress": "[-]", completed: "[x]" };

/** The list as a Markdown task list (`- [x] 1. Title`), descriptions indented under their item. */
export function todoListText(todos: readonly TodoItem[]): string {
  return todos.map((t) => `- ${marks[t.status]} ${t.id}. ${t.title}${t.description ? `\n  ${t.description.replace(/\n/g, "\n  ")}` : ""}`).join("\n");
}

export function openTodos(todos: readonly TodoItem[] | undefined): TodoItem[] {
  return (todos ?? []).filter((t) => t.status !== "completed");
}

/**
 * The items not completed yet, as text ("" when none): what a summary of the conversation keeps
 * so that the work goes on from it.
 */
export function openTodosText(todos: readonly TodoItem[] | undefined): string {
  const open = openTodos(todos);
  return open.length === 0 ? "" : `Open todos:\n${todoListText(open)}`;
}

/** What the user's next request carries of a list with open items, so the model takes it up. */
export function carriedTodosNote(todos: readonly TodoItem[]): string {
  return `[Your todo list from earlier in this conversation; update it with ${todoToolName} as you work:\n${todoListText(todos)}]`;
}

/** Tool rounds since the model last called the todo tool (or since the task began). */
export function stepsSinceTodoUpdate(messages: readonly AgentMessage[]): number {
  let steps = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== "assistant" || !("tool_calls" in message)) continue;
    if (message.tool_calls.some((c) => c.function.name === todoToolName)) return steps;
    steps++;
  }
  return steps;
}

/**
 * The reminder a request ends with when items are open and the model has not touched the list
 * for `todoReminderSteps` rounds; undefined otherwise.
 */
export function todoReminder(todos: readonly TodoItem[] | undefined, messages: readonly AgentMessage[]): string | undefined {
  if (openTodos(todos).length === 0) return undefined;
  const steps = stepsSinceTodoUpdate(messages);
  if (steps < todoReminderSteps) return undefined;
  return `[Reminder: ${steps} tool rounds since the todo list was last updated. If an item is done, mark it completed (and the next one in-progress) with ${todoToolName}. The list:\n${todoListText(todos!)}]`;
}

/** The conversation's todo list now: the one its latest agent task kept (empty when none). */
export function chatTodos(chat: Chat): readonly TodoItem[] {
  for (let i = chat.turns.length - 1; i >= 0; i--) {
    const turn = chat.turns[i]!;
    if (turn.role === "assistant" && turn.agent?.todos) return turn.agent.todos;
  }
  return [];
}
