/**
 * Fits an agent's conversation into the model's context window. Tool results are what grows
 * (files read, command output), so they are shortened first, the oldest first, each with a note
 * saying so; the model's own messages and the task stay whole.
 */
import type { AgentMessage } from "../api/chat";
import { fitToBudget } from "../context/budget-fit";

export interface AgentBudget {
  readonly contextTokens: number;
  /** Room kept for the answer. */
  readonly maxTokens: number;
  readonly tokensPerChar: number;
  /** What the tool definitions cost. */
  readonly toolsTokens: number;
}

const tokensPerMessage = 6;

export function fitAgentMessages(messages: readonly AgentMessage[], budget: AgentBudget): AgentMessage[] {
  const cost = (m: AgentMessage) => tokensPerMessage + Math.ceil(textOf(m).length * budget.tokensPerChar);
  const reserve = Math.min(Math.max(0, budget.maxTokens), Math.floor(budget.contextTokens / 2));
  const room = budget.contextTokens - reserve - budget.toolsTokens;
  const fixed = messages.reduce((sum, m) => sum + (m.role === "tool" ? tokensPerMessage : cost(m)), 0);
  const results = messages.flatMap((m, index) => (m.role === "tool" ? [{ id: String(index), text: m.content, relevance: index }] : []));
  const fitted = fitToBudget(results, Math.max(0, room - fixed), budget.tokensPerChar);
  if (fitted.cuts.length === 0) return [...messages];
  const kept = new Map(fitted.items.map((i) => [Number(i.id), i]));
  const cuts = new Map(fitted.cuts.map((c) => [Number(c.id), c]));
  return messages.map((m, index) => {
    const cut = cuts.get(index);
    if (m.role !== "tool" || cut === undefined) return m;
    const note = cut.dropped
      ? `[This earlier result (${cut.totalLines} lines) was left out to fit the context window; call the tool again if you need it.]`
      : `\n[Shortened to fit the context window: the first ${cut.keptLines} of ${cut.totalLines} lines kept.]`;
    return { ...m, content: cut.dropped ? note : `${kept.get(index)?.text ?? ""}${note}` };
  });
}

function textOf(message: AgentMessage): string {
  if (message.role === "assistant" && "tool_calls" in message) {
    return (message.content ?? "") + message.tool_calls.map((c) => c.function.name + c.function.arguments).join("");
  }
  return message.content;
}
