/**
 * A server's refusal of a prompt longer than the model's context. The client only estimates
 * tokens, so such a refusal means the estimate was low: the ratio learned from it makes Retry
 * leave out enough older turns instead of sending the same request again.
 */
import type { ChatMessage } from "../api/chat";
import { calibratedTokensPerChar, defaultTokensPerChar } from "./context-trim";

export interface ContextOverflow {
  /** The prompt's tokens as the server counted them, when its message says. */
  readonly promptTokens?: number;
}

/** OpenAI's code, and the wording of OpenAI, vLLM, Wisp's server and llama.cpp's server. */
const overflowText = /maximum context length|context_length_exceeded|exceeds the available context size|context length exceeded/i;
/** vLLM and Wisp's server: "(N in the messages, …"; OpenAI: "your messages resulted in N tokens". */
const promptCount = /\((\d+) in the messages\b|messages resulted in (\d+) tokens/i;

export function contextOverflow(error: unknown): ContextOverflow | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (code !== "context_length_exceeded" && !overflowText.test(message)) return undefined;
  const count = promptCount.exec(message);
  const promptTokens = count ? Number(count[1] ?? count[2]) : undefined;
  return promptTokens === undefined ? {} : { promptTokens };
}

/**
 * The tokens-per-character ratio to use after the refusal of `messages`: the server's count when it
 * gave one, else half again the ratio that fell short. Never lower than before.
 */
export function ratioAfterOverflow(messages: readonly ChatMessage[], overflow: ContextOverflow, before = defaultTokensPerChar): number {
  const counted = overflow.promptTokens === undefined ? undefined : calibratedTokensPerChar(messages, overflow.promptTokens);
  return Math.min(1, Math.max(before, counted ?? before * 1.5));
}

/** What the user can do about it, added to the server's message. */
export function overflowAdvice(messages: readonly ChatMessage[]): string {
  const earlier = messages.filter((m) => m.role !== "system").length > 1;
  return earlier ? "Retry sends fewer of the earlier messages." : "Shorten the message or what is attached to it.";
}
