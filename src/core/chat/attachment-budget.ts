/**
 * Fits the code attached to the question being sent into the room the context window leaves for
 * it, so a large file or many mentions shorten the least relevant code instead of failing the
 * request or pushing out the question.
 */
import { fitToBudget } from "../context/budget-fit";
import { defaultTokensPerChar, estimateTokens } from "./context-trim";
import type { ChatTurn, CodeAttachment, UserTurn } from "./conversation";
import { describeAttachment } from "./prompt";

export interface AttachmentBudget {
  readonly contextTokens: number;
  readonly maxTokens: number;
  readonly systemPrompt: string;
  readonly tokensPerChar?: number;
}

export interface FittedTurns {
  readonly turns: readonly ChatTurn[];
  /** What was shortened or left out, as the user reads it; empty when everything fit. */
  readonly cuts: readonly string[];
}

/** Headings and fences around each attachment. */
const tokensPerAttachment = 24;

export function fitLastQuestion(budget: AttachmentBudget, turns: readonly ChatTurn[]): FittedTurns {
  const at = turns.findLastIndex((t) => t.role === "user");
  const question = turns[at] as UserTurn | undefined;
  if (question === undefined || question.attachments.length === 0) return { turns, cuts: [] };
  const ratio = budget.tokensPerChar ?? defaultTokensPerChar;
  const reserve = Math.min(Math.max(0, budget.maxTokens), Math.floor(budget.contextTokens / 2));
  const fixed = estimateTokens([{ role: "system", content: budget.systemPrompt }, { role: "user", content: question.text }], ratio);
  const room = Math.max(0, budget.contextTokens - reserve - fixed - tokensPerAttachment * question.attachments.length);
  // What the user attached by hand outranks what Wisp found for them.
  const items = question.attachments.map((a) => ({ id: a.id, text: a.text, relevance: a.source === "found" ? 1 : 2 }));
  const fitted = fitToBudget(items, room, ratio);
  if (fitted.cuts.length === 0) return { turns, cuts: [] };
  const kept = new Map(fitted.items.map((i) => [i.id, i]));
  const attachments = question.attachments.flatMap((a): CodeAttachment[] => {
    const item = kept.get(a.id);
    if (item === undefined) return [];
    return item.keptLines === undefined ? [a] : [{ ...a, text: item.text, endLine: a.startLine + item.keptLines - 1 }];
  });
  const cuts = fitted.cuts.map((cut) => {
    const original = question.attachments.find((a) => a.id === cut.id)!;
    return cut.dropped ? `${describeAttachment(original)}: left out` : `${describeAttachment(original)}: first ${cut.keptLines} of ${cut.totalLines} lines kept`;
  });
  return { turns: turns.map((t, i) => (i === at ? { ...question, attachments } : t)), cuts };
}

/** What the user reads when attached code did not fit. */
export function cutNotice(cuts: readonly string[], contextTokens: number): string {
  return `To fit the model's context of ${contextTokens} tokens, attached code was cut: ${cuts.join("; ")}.`;
}
