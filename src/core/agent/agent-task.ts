/**
 * An agent task as the chat keeps it: what the model said and did, step by step, the files it
 * changed (for Keep and Undo), and the conversation the model saw (so a stopped or capped task can
 * go on). Plain data: it is stored with the chat and sent to the webview.
 */
import type { AgentMessage } from "../api/chat";
import type { TodoItem } from "./todo-list";

/** Waiting for the user (approval), running, or how it ended. */
export type StepStatus = "asking" | "running" | "done" | "failed" | "denied" | "stopped";

export interface TextStep {
  readonly kind: "text";
  readonly id: string;
  readonly text: string;
}

export interface ToolStep {
  readonly kind: "tool";
  readonly id: string;
  /** The tool's name as the model called it. */
  readonly tool: string;
  /** One line for the row: `read src/cart.js`, `ran npm test`. */
  readonly title: string;
  readonly status: StepStatus;
  /** The workspace file the step read or changed. */
  readonly path?: string;
  /** Lines added and removed by an edit. */
  readonly added?: number;
  readonly removed?: number;
  /** A command: what runs, why (the model's explanation), its exit code and output so far. */
  readonly command?: string;
  readonly explanation?: string;
  readonly exitCode?: number | null;
  readonly output?: string;
  /** Why it asks (a sensitive file, a command) or why it failed or was refused. */
  readonly note?: string;
  /** An MCP tool's description as its server gave it: what the model reads about the tool. */
  readonly description?: string;
  /** What changed in an MCP tool's definition since the user allowed it (removed "- ", added "+ " lines). */
  readonly changes?: string;
}

export type AgentStep = TextStep | ToolStep;

/** What the task's changes are waiting for: Keep or Undo (until the next task starts). */
export type ReviewState = "pending" | "kept" | "undone";

export interface ChangedFile {
  readonly path: string;
  readonly added: number;
  readonly removed: number;
  /** The task created it: Undo deletes it. */
  readonly created: boolean;
  readonly review: ReviewState;
}

/** How the loop ended, when it did. */
export type TaskEnd = "done" | "max-steps" | "repeated" | "stopped" | "error" | "untrusted";

export interface AgentTask {
  readonly steps: readonly AgentStep[];
  readonly files: readonly ChangedFile[];
  readonly end?: TaskEnd;
  /** The conversation the model saw, tool calls and results included. */
  readonly messages: readonly AgentMessage[];
  /** The todo list the model keeps with manage_todo_list (carried into the next task while items are open). */
  readonly todos?: readonly TodoItem[];
  /** The workspace folder the task worked in, where there are several: its files' paths are relative to it. */
  readonly folder?: string;
}

export const emptyTask: AgentTask = { steps: [], files: [], messages: [] };

/** The task with the step of the same id replaced (or appended). */
export function withStep(task: AgentTask, step: AgentStep): AgentTask {
  const index = task.steps.findIndex((s) => s.id === step.id);
  const steps = index < 0 ? [...task.steps, step] : task.steps.map((s, i) => (i === index ? step : s));
  return { ...task, steps };
}

/** Adds an edit's line counts to the file's row (a file edited twice shows the sum). */
export function withChangedFile(task: AgentTask, path: string, added: number, removed: number, created: boolean): AgentTask {
  const existing = task.files.find((f) => f.path === path);
  const file: ChangedFile = existing
    ? { ...existing, added: existing.added + added, removed: existing.removed + removed, review: "pending" }
    : { path, added, removed, created, review: "pending" };
  return { ...task, files: existing ? task.files.map((f) => (f.path === path ? file : f)) : [...task.files, file] };
}

/** Marks files (all when none named) kept or undone. */
export function withReview(task: AgentTask, review: Exclude<ReviewState, "pending">, paths?: readonly string[]): AgentTask {
  return { ...task, files: task.files.map((f) => (f.review === "pending" && (!paths || paths.includes(f.path)) ? { ...f, review } : f)) };
}

/** Steps still asking or running when a chat is loaded were cut off by a reload. */
export function recoverTask(task: AgentTask): AgentTask {
  const cut = task.steps.some((s) => s.kind === "tool" && (s.status === "asking" || s.status === "running"));
  if (!cut && task.end !== undefined) return task;
  return {
    ...task,
    end: task.end ?? "stopped",
    steps: task.steps.map((s) => (s.kind === "tool" && (s.status === "asking" || s.status === "running") ? { ...s, status: "stopped" } : s)),
  };
}
