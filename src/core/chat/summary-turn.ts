/** The turn that holds a compacted conversation's summary, and what requests read of it. */
import type { AssistantTurn, ChatTurn, Compaction } from "./conversation";

/** A finished summary that stands for earlier turns (a failed or unfinished one stands for nothing). */
export function isSummary(turn: ChatTurn): turn is AssistantTurn & { compaction: Compaction } {
  return turn.role === "assistant" && turn.compaction !== undefined && turn.status === "done";
}

/** What later requests read of a summary, in their system message. */
export function summaryContext(turn: AssistantTurn & { compaction: Compaction }): string {
  const parts = [`The conversation so far was compacted into this summary (the earlier messages are no longer shown to you):\n${turn.text.trim()}`];
  if (turn.compaction.files.length > 0) parts.push(`Files changed so far: ${turn.compaction.files.join(", ")}.`);
  if (turn.compaction.todos.length > 0) parts.push(`Open todos:\n${turn.compaction.todos.map((t) => `- ${t}`).join("\n")}`);
  return parts.join("\n\n");
}
