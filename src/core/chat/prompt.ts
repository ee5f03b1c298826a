/**
 * Turns a chat into the `messages` of a chat/completions request: the system prompt, then each
 * user message with its attached code (file name, language, line range in a fenced block).
 */
import type { ChatMessage } from "../api/chat";
import type { AssistantTurn, ChatTurn, CodeAttachment, UserTurn } from "./conversation";
import { isSummary, summaryContext } from "./summary-turn";
import { answerText } from "./thinking";

export type QuickAction = "explain" | "findProblems" | "writeTests";

export const quickActions: Readonly<Record<QuickAction, { title: string; prompt: string }>> = {
  explain: { title: "Explain", prompt: "Explain what this code does, step by step." },
  findProblems: {
    title: "Find Problems",
    prompt: "Find problems in this code: bugs, unhandled edge cases, and unsafe or unclear parts. For each, say why and show a fix.",
  },
  writeTests: {
    title: "Write Tests",
    prompt: "Write unit tests for this code, with the test framework the file or its language usually uses. Cover edge cases.",
  },
};

/** A fence longer than any backtick run inside the code, so the code cannot close it. */
export function fenceFor(code: string): string {
  const longest = Math.max(0, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  return "`".repeat(Math.max(3, longest + 1));
}

/** How an attachment is described to the user (chip) and to the model (heading). */
export function describeAttachment(a: CodeAttachment): string {
  if (a.label !== undefined) return a.label;
  const lines = a.startLine === a.endLine ? `line ${a.startLine}` : `lines ${a.startLine}-${a.endLine}`;
  if (a.source === "visible") return `${a.path}, ${lines} (visible part; nothing selected)`;
  if (a.source === "found") return `${a.path}, ${lines} (found in the workspace)`;
  return `${a.path}, ${lines}`;
}

export function formatAttachment(a: CodeAttachment): string {
  const fence = fenceFor(a.text);
  const body = a.text.endsWith("\n") ? a.text : `${a.text}\n`;
  return `${describeAttachment(a)} (${a.language}):\n${fence}${a.language}\n${body}${fence}`;
}

/** The content sent for a user turn: its text, then its attachments. */
export function userContent(turn: UserTurn): string {
  const parts = turn.attachments.map(formatAttachment);
  const text = turn.text.trim();
  if (parts.length === 0) return text;
  return text === "" ? parts.join("\n\n") : `${text}\n\n${parts.join("\n\n")}`;
}

/** An answer worth sending back as context: it has text and did not fail. */
function usable(turn: AssistantTurn): boolean {
  return turn.status !== "error" && answerText(turn.text).trim() !== "";
}

/**
 * The messages for answering the chat's last user turn. A question whose answer failed or came
 * back empty is left out with its answer (the user asked again or moved on), except the last
 * question, which is the one being answered.
 */
export function buildMessages(systemPrompt: string, turns: readonly ChatTurn[]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  // A summary of compacted turns goes with the system prompt: it is context, not a message to answer.
  const summary = turns.findLast(isSummary);
  const system = [systemPrompt.trim(), summary ? summaryContext(summary) : ""].filter((p) => p !== "").join("\n\n");
  if (system !== "") messages.push({ role: "system", content: system });
  const lastUser = turns.findLastIndex((t) => t.role === "user");
  for (let i = 0; i < turns.length; i++) {
    const turn = turns[i]!;
    if (turn.role === "assistant" && turn.compaction) continue;
    if (turn.role === "assistant") {
      // A reasoning model's thinking goes back no more than reasoning_content does.
      if (usable(turn)) messages.push({ role: "assistant", content: answerText(turn.text) });
      continue;
    }
    const answer = turns[i + 1];
    const answered = answer?.role === "assistant" && usable(answer);
    if (i === lastUser || answered) messages.push({ role: "user", content: userContent(turn) });
  }
  return messages;
}
