/**
 * An agent task in the conversation: a compact row per step (read, edited with Open Diff, ran
 * with its output folded), an approval card on the step that asks, and under the transcript the
 * changed files with Keep and Undo, or Continue when the task reached its step limit.
 */
import type { AgentTask, ChangedFile, ToolStep } from "../../core/agent/agent-task";
import type { AssistantTurn } from "../../core/chat/conversation";
import type { ApprovalChoice, ViewMessage } from "../../core/chat/protocol";
import { actionButton, el } from "./dom";

type Post = (message: ViewMessage) => void;

/**
 * Step outputs the user opened (true) or closed (false), by step id. The rows are drawn again
 * on every output chunk of a running command: this keeps what the user chose across redraws.
 */
export type OutputFolds = Map<string, boolean>;

const statusLabels: Record<ToolStep["status"], string> = {
  asking: "waiting for you",
  running: "running",
  done: "",
  failed: "failed",
  denied: "denied",
  stopped: "stopped",
};

/** The steps of the task, in order (text the model wrote between its calls included). */
export function agentSteps(task: AgentTask, post: Post, folds: OutputFolds): HTMLElement {
  const list = el("ol", { className: "agent-steps", "aria-label": "What the agent did" });
  for (const step of task.steps) {
    if (step.kind === "text") list.append(el("li", { className: "agent-text" }, step.text.trim()));
    else list.append(toolRow(step, post, folds));
  }
  return list;
}

function toolRow(step: ToolStep, post: Post, folds: OutputFolds): HTMLElement {
  const counts = step.added !== undefined && step.status === "done" ? el("span", { className: "agent-counts" }, el("span", { className: "added" }, `+${step.added}`), " ", el("span", { className: "removed" }, `−${step.removed ?? 0}`)) : undefined;
  const exit = step.exitCode !== undefined ? el("span", { className: "agent-exit" }, step.exitCode === null ? "killed" : `exit ${step.exitCode}`) : undefined;
  const status = statusLabels[step.status] ? el("span", { className: `agent-status ${step.status}` }, statusLabels[step.status]) : undefined;
  const diff = counts && step.path ? actionButton(`Open Diff of ${step.path}`, () => post({ type: "agentDiff", path: step.path! }), { className: "link" }, "Open Diff") : undefined;
  const row = el("li", { className: `agent-step ${step.status}`, "data-step": step.id, "data-tool": step.tool }, el("div", { className: "agent-row" }, el("span", { className: "agent-title" }, step.title || step.tool), counts, exit, status, diff));
  if (step.status === "asking") row.append(approvalCard(step, post));
  else if (step.note && (step.status === "failed" || step.status === "denied")) row.append(el("p", { className: "agent-note" }, step.note));
  if (step.output !== undefined && step.status !== "asking") {
    const details = el("details", { className: "agent-output" }, el("summary", {}, step.status === "running" ? "Output (live)" : "Output"), el("pre", {}, step.output === "" ? "(no output yet)" : step.output));
    // A running command's output is open while it runs, finished ones are folded; unless the user chose.
    details.open = folds.get(step.id) ?? step.status === "running";
    // A click on the summary (also Enter or Space on it) toggles after this: record the new state.
    details.querySelector("summary")!.addEventListener("click", () => folds.set(step.id, !details.open));
    row.append(details);
  }
  return row;
}

/** What a card asks, by the kind of step. */
export function approvalQuestion(step: ToolStep): string {
  if (step.tool === "run_in_terminal") return "Run this command?";
  if (step.tool === "mcp_start") return "Start this MCP server?";
  if (step.tool.startsWith("mcp_")) return "Call this MCP tool?";
  if (step.tool === "read_file") return "Read this file?";
  return "Allow this?";
}

function approvalCard(step: ToolStep, post: Post): HTMLElement {
  const answer = (choice: ApprovalChoice) => () => post({ type: "agentApproval", stepId: step.id, answer: choice });
  const what = step.command ? el("pre", { className: "agent-command" }, el("code", {}, step.command)) : undefined;
  const ask = approvalQuestion(step);
  const mcpCall = step.tool.startsWith("mcp_") && step.tool !== "mcp_start";
  return el(
    "div",
    { className: "agent-approval", role: "group", "aria-label": ask },
    el("p", { className: "agent-ask" }, ask),
    what,
    step.explanation ? el("p", { className: "agent-explanation" }, step.explanation) : undefined,
    step.note ? el("p", { className: "agent-note" }, step.note) : undefined,
    step.description !== undefined ? el("p", { className: "agent-tool-description" }, el("strong", {}, "Description from the server: "), step.description) : undefined,
    step.changes ? changesBlock(step.changes) : undefined,
    el(
      "div",
      { className: "actions" },
      actionButton("Allow", answer("allow"), { className: "primary" }),
      actionButton("Allow in this session", answer("session")),
      mcpCall ? actionButton("Always allow this tool", answer("always"), { title: "Always allow this tool in this workspace" }) : undefined,
      actionButton("Deny", answer("deny")),
    ),
  );
}

/** What changed in a tool's definition: removed lines and added lines in the diff colours. */
function changesBlock(changes: string): HTMLElement {
  const lines = changes.split("\n").map((line) => el("span", { className: line.startsWith("+ ") ? "added" : line.startsWith("- ") ? "removed" : "" }, `${line}\n`));
  return el("pre", { className: "agent-changes", "aria-label": "What changed in the tool since you allowed it" }, el("code", {}, ...lines));
}

/** Under the transcript: Continue after the step limit; Keep / Undo for the task's changes. */
export function agentFooter(turn: AssistantTurn, task: AgentTask, latest: boolean, running: boolean, post: Post): HTMLElement[] {
  const parts: HTMLElement[] = [];
  if (task.end === "max-steps" && latest && !running) {
    parts.push(el("div", { className: "agent-continue" }, el("p", {}, "The agent reached its step limit (wisp.agent.maxSteps)."), actionButton("Continue", () => post({ type: "agentContinue" }), { className: "primary" })));
  }
  if (task.files.length === 0) return parts;
  const pending = task.files.some((f) => f.review === "pending");
  const rows = task.files.map((file) => fileRow(turn, file, task.folder, running, post));
  const whole = pending && !running
    ? el("div", { className: "actions" }, actionButton("Keep", () => post({ type: "agentReview", turnId: turn.id, action: "keep" }), { className: "primary", title: "Keep all of the task's changes" }), actionButton("Undo", () => post({ type: "agentReview", turnId: turn.id, action: "undo" }), { title: "Undo all of the task's changes: the files as they were before it" }))
    : undefined;
  parts.push(el("section", { className: "agent-files", "aria-label": "Files the task changed" }, el("ul", {}, ...rows), whole));
  return parts;
}

/** A changed file's row; named as the chat names files (`beta/src/app.ts`) where the workspace has several folders. */
function fileRow(turn: AssistantTurn, file: ChangedFile, folder: string | undefined, running: boolean, post: Post): HTMLElement {
  const review = (action: "keep" | "undo") => () => post({ type: "agentReview", turnId: turn.id, action, path: file.path });
  const name = folder === undefined ? file.path : `${folder}/${file.path}`;
  const state = file.review === "pending" ? undefined : el("span", { className: `agent-review ${file.review}` }, file.review === "kept" ? "kept" : "undone");
  const buttons = file.review === "pending" && !running ? [actionButton(`Keep ${name}`, review("keep"), { className: "link" }, "Keep"), actionButton(`Undo ${name}`, review("undo"), { className: "link" }, "Undo")] : [];
  return el(
    "li",
    { className: "agent-file", "data-path": file.path },
    el("span", { className: "agent-title" }, `${file.created ? "created" : "edited"} ${name}`),
    el("span", { className: "agent-counts" }, el("span", { className: "added" }, `+${file.added}`), " ", el("span", { className: "removed" }, `−${file.removed}`)),
    state,
    ...buttons,
  );
}

/** What an agent turn's frame depends on (its steps and files, not the conversation it keeps). */
export function agentKey(task: AgentTask | undefined): unknown {
  return task ? [task.steps, task.files, task.end, task.todos] : undefined;
}
