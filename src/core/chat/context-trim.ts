/**
 * Fits a conversation into the model's context window by leaving out the oldest turns. Token counts
 * are estimated from characters (the client has no tokenizer); the ratio is corrected with the
 * prompt_tokens the server reports after each answer.
 */
import type { ChatMessage } from "../api/chat";

/** A cautious default: code and prose run at roughly 3-4 characters per token. */
export const defaultTokensPerChar = 0.3;
/** Role markers and separators that chat templates add around each message. */
const tokensPerMessage = 6;

export function estimateTokens(messages: readonly ChatMessage[], tokensPerChar = defaultTokensPerChar): number {
  return messages.reduce((sum, m) => sum + tokensPerMessage + Math.ceil(m.content.length * tokensPerChar), 0);
}

/**
 * The tokens-per-character ratio the server's count implies for a prompt, clamped to what
 * tokenizers produce; undefined when the count cannot teach anything.
 */
export function calibratedTokensPerChar(messages: readonly ChatMessage[], promptTokens: number): number | undefined {
  const chars = messages.reduce((sum, m) => sum + m.content.length, 0);
  const content = promptTokens - tokensPerMessage * messages.length;
  if (chars < 200 || content <= 0) return undefined;
  return Math.min(1, Math.max(0.15, content / chars));
}

export interface ContextBudget {
  /** The model's context window, in tokens. */
  readonly contextTokens: number;
  /** Tokens asked for the answer (max_tokens). */
  readonly maxTokens: number;
  readonly tokensPerChar?: number;
}

export interface TrimmedMessages {
  readonly messages: ChatMessage[];
  /** Messages of earlier turns left out (user and assistant messages count one each). */
  readonly droppedMessages: number;
  /** Estimated prompt tokens of what is kept. */
  readonly promptTokens: number;
  /** Tokens the prompt may take: the context less what the answer needs. */
  readonly promptBudget: number;
  /** False when even the system prompt and the last message alone are over budget. */
  readonly fits: boolean;
}

/**
 * Keeps the system message and the last message, then as many of the most recent earlier messages
 * as fit. The answer keeps max_tokens of room, but at most half the context, so a large
 * max_tokens setting cannot crowd out the question itself.
 */
export function trimToContext(messages: readonly ChatMessage[], budget: ContextBudget): TrimmedMessages {
  const ratio = budget.tokensPerChar ?? defaultTokensPerChar;
  const reserve = Math.min(Math.max(0, budget.maxTokens), Math.floor(budget.contextTokens / 2));
  const promptBudget = Math.max(0, budget.contextTokens - reserve);
  const system = messages[0]?.role === "system" ? [messages[0]] : [];
  const rest = messages.slice(system.length);
  const last = rest.slice(-1);
  const earlier = rest.slice(0, -1);
  let used = estimateTokens([...system, ...last], ratio);
  const fits = used <= promptBudget;
  let keepFrom = earlier.length;
  while (keepFrom > 0) {
    const cost = estimateTokens([earlier[keepFrom - 1]!], ratio);
    if (used + cost > promptBudget) break;
    used += cost;
    keepFrom--;
  }
  // Start the kept history on a user message: an answer without its question reads as noise.
  while (keepFrom < earlier.length && earlier[keepFrom]!.role !== "user") {
    used -= estimateTokens([earlier[keepFrom]!], ratio);
    keepFrom++;
  }
  return {
    messages: [...system, ...earlier.slice(keepFrom), ...last],
    droppedMessages: keepFrom,
    promptTokens: used,
    promptBudget,
    fits,
  };
}
