/**
 * Compacting a conversation: the model summarizes it (the task, the decisions, the files changed,
 * the open todos), the summary takes the place of every turn, and later requests carry the summary
 * in their system message. Files changed and open todos are also read off the turns themselves, so
 * they survive whatever the model leaves out.
 */
import type { ChatMessage } from "../api/chat";
import type { ChatTurn } from "./conversation";
import { isSummary } from "./summary-turn";
import { estimateTokens } from "./context-trim";
import { describeAttachment } from "./prompt";
import { maskSecrets } from "../terminal/mask-secrets";
import { cutAt, safeStart } from "../base/surrogates";
import { answerText } from "./thinking";
import type { ToolStep } from "../agent/agent-task";

/** Characters kept of one message in the transcript given to the summarizer. */
const maxMessageChars = 4_000;
/** Characters of a tool result or command output kept in the transcript. */
const maxToolChars = 600;

/** Workspace files the conversation's agent tasks changed (and did not undo), each once, in order. */
export function filesChanged(turns: readonly ChatTurn[]): string[] {
  const files = new Set<string>();
  for (const turn of turns) {
    if (turn.role !== "assistant") continue;
    for (const path of turn.compaction?.files ?? []) files.add(path);
    for (const file of turn.agent?.files ?? []) {
      if (file.review === "undone") files.delete(file.path);
      else files.add(file.path);
    }
  }
  return [...files];
}

/**
 * The items not completed on the agent's latest todo list (the last `manage_todo_list` call of the
 * conversation, whatever its list field is named), or those a previous summary kept.
 */
export function openTodos(turns: readonly ChatTurn[]): string[] {
  for (let i = turns.length - 1; i >= 0; i--) {
    const turn = turns[i]!;
    if (turn.role !== "assistant") continue;
    const messages = turn.agent?.messages ?? [];
    for (let m = messages.length - 1; m >= 0; m--) {
      const message = messages[m]!;
      if (message.role !== "assistant" || !("tool_calls" in message)) continue;
      const call = [...message.tool_calls].reverse().find((c) => c.function.name === "manage_todo_list");
      const items = call ? todoItems(call.function.arguments) : undefined;
      if (items) return items.filter((t) => !/^(completed|done)$/i.test(t.status)).map((t) => (t.status ? `${t.title} (${t.status})` : t.title));
    }
    if (turn.compaction) return [...turn.compaction.todos];
  }
  return [];
}

function todoItems(args: string): { title: string; status: string }[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return undefined;
  }
  const lists = Array.isArray(parsed) ? [parsed] : typeof parsed === "object" && parsed !== null ? Object.values(parsed).filter(Array.isArray) : [];
  for (const list of lists) {
    const items = (list as unknown[]).flatMap((item) => {
      const record = item as Record<string, unknown>;
      const title = typeof record?.title === "string" ? record.title : typeof record?.content === "string" ? record.content : undefined;
      return title === undefined ? [] : [{ title, status: typeof record.status === "string" ? record.status : "" }];
    });
    if (items.length > 0) return items;
  }
  return undefined;
}

/** The conversation as plain text for the summarizer, newest last. */
export function transcriptOf(turns: readonly ChatTurn[]): string {
  const parts: string[] = [];
  for (const turn of turns) {
    if (turn.role === "user") {
      const attached = turn.attachments.map((a) => `[attached: ${describeAttachment(a)}]`);
      parts.push([`User: ${cut(turn.text.trim(), maxMessageChars)}`, ...attached].join("\n"));
      continue;
    }
    if (turn.compaction) {
      if (isSummary(turn)) parts.push(`Summary of the conversation before this point:\n${turn.text.trim()}`);
      continue;
    }
    const steps = (turn.agent?.steps ?? []).map((s) => (s.kind === "text" ? `Assistant: ${cut(s.text.trim(), maxMessageChars)}` : toolStep(s)));
    const files = (turn.agent?.files ?? []).map((f) => `[file ${f.created ? "created" : "changed"}: ${f.path} (+${f.added} −${f.removed}${f.review === "pending" ? "" : `, ${f.review}`})]`);
    const answer = turn.status === "error" ? `[the answer failed: ${turn.error?.message ?? "error"}]` : `Assistant: ${cut(answerText(turn.text).trim(), maxMessageChars)}`;
    parts.push([...steps, ...files, answer].join("\n"));
  }
  return parts.join("\n\n");
}

/**
 * A tool step in one line, masked as a command's output is for the model (masked, then cut): chats
 * saved before steps were stored masked hold a command's output, and a title or note may quote it.
 */
function toolStep(s: ToolStep): string {
  const detail = s.output?.trim() || s.note || "";
  return `[${maskSecrets(s.title)} — ${s.status}${detail ? `: ${cut(maskSecrets(detail), maxToolChars)}` : ""}]`;
}

export interface CompactionRequestInput {
  readonly turns: readonly ChatTurn[];
  /** What the user asked the summary to keep (text after /compact). */
  readonly focus?: string;
  readonly contextTokens: number;
  readonly maxTokens: number;
  readonly tokensPerChar?: number;
}

const summarizer = [
  "You write the summary that replaces a conversation between a user and Wisp, a coding assistant in VS Code, so that the work can go on from the summary alone.",
  "Write Markdown with these sections: ## Task (what the user wants, in their words where it matters), ## Decisions (what was decided or learnt, with the reasons), ## Files changed (each file and what changed in it), ## Open todos (what is left to do), ## Next step.",
  "Keep names, paths, commands, error messages and numbers exactly as written. Leave out greetings and anything that no longer matters. Be brief.",
].join(" ");

/** The request messages that ask for the summary; the transcript keeps its newest part when it is too long. */
export function compactionMessages(input: CompactionRequestInput): ChatMessage[] {
  const files = filesChanged(input.turns);
  const todos = openTodos(input.turns);
  const facts = [
    files.length > 0 ? `Files changed (as Wisp recorded them): ${files.join(", ")}.` : "",
    todos.length > 0 ? `Open todos (from the agent's todo list):\n${todos.map((t) => `- ${t}`).join("\n")}` : "",
    input.focus?.trim() ? `The user asks the summary to keep in particular: ${input.focus.trim()}` : "",
  ].filter((p) => p !== "");
  const head = `Summarize the conversation below.${facts.length > 0 ? `\n\n${facts.join("\n\n")}` : ""}\n\n<conversation>\n`;
  const tail = "\n</conversation>";
  const ratio = input.tokensPerChar ?? 0.3;
  const reserve = Math.min(Math.max(0, input.maxTokens), Math.floor(input.contextTokens / 2));
  const fixed = estimateTokens([{ role: "system", content: summarizer }, { role: "user", content: head + tail }], ratio);
  const room = Math.max(200, Math.floor((input.contextTokens - reserve - fixed) / ratio));
  let transcript = transcriptOf(input.turns);
  if (transcript.length > room) transcript = `[…the oldest part of the conversation is left out to fit the model's context…]\n${transcript.slice(safeStart(transcript, transcript.length - room))}`;
  return [
    { role: "system", content: summarizer },
    { role: "user", content: head + transcript + tail },
  ];
}

/** Whether a conversation about to send its next message is close enough to the context to compact first. */
export function nearlyFull(planned: { readonly promptTokens: number; readonly promptBudget: number; readonly droppedMessages: number }, percent: number): boolean {
  if (percent <= 0) return false;
  return planned.droppedMessages > 0 || planned.promptTokens > (planned.promptBudget * Math.min(100, percent)) / 100;
}

function cut(text: string, max: number): string {
  const kept = cutAt(text, max);
  return kept === text ? text : `${kept}…[${text.length - kept.length} more characters]`;
}
