/**
 * The agent's todo list above its task's transcript: every item with its state while the task is
 * the chat's latest, one line of progress under earlier tasks. The model's titles go in as text.
 */
import type { TodoItem, TodoStatus } from "../../core/agent/todo-list";
import { el } from "./dom";

const marks: Record<TodoStatus, string> = { "not-started": "○", "in-progress": "◐", completed: "✓" };
const said: Record<TodoStatus, string> = { "not-started": "not started", "in-progress": "in progress", completed: "done" };

export function todoPanel(todos: readonly TodoItem[], latest: boolean): HTMLElement {
  const done = todos.filter((t) => t.status === "completed").length;
  const progress = el("span", { className: "todo-progress" }, `${done} of ${todos.length} done`);
  const header = el("header", { className: "todo-header" }, el("span", { className: "todo-heading" }, "Todos"), progress);
  if (!latest) return el("section", { className: "agent-todos folded", "aria-label": "Todo list" }, header);
  const items = todos.map((t) =>
    el(
      "li",
      { className: `todo ${t.status}`, "data-status": t.status, title: t.description },
      el("span", { className: "todo-mark", "aria-hidden": "true" }, marks[t.status]),
      el("span", { className: "todo-title" }, t.title),
      el("span", { className: "todo-state" }, said[t.status]),
    ),
  );
  return el("section", { className: "agent-todos", "aria-label": "Todo list" }, header, el("ol", { className: "todo-items" }, ...items));
}
