/**
 * Token counts for the editor's chat. No OpenAI-compatible endpoint counts tokens, so they are
 * estimated from characters (as the panel does) with a per-model ratio that the server's
 * `prompt_tokens` correct after each answer.
 */
import type { AgentChatRequest, AgentMessage, ChatMessage } from "../api/chat";
import type { Usage } from "../api/usage";
import { calibratedTokensPerChar, defaultTokensPerChar, estimateTokens } from "../chat/context-trim";

export class TokenEstimator {
  private readonly ratios = new Map<string, number>();

  /** Estimated tokens of a text (a bare string) or of whole messages (with their per-message overhead). */
  count(model: string, input: string | readonly AgentMessage[]): number {
    const ratio = this.ratios.get(model) ?? defaultTokensPerChar;
    return typeof input === "string" ? Math.ceil(input.length * ratio) : estimateTokens(input.map(asText), ratio);
  }

  /** Learns the model's ratio from what the server counted for a request it answered. */
  learn(request: AgentChatRequest, usage: Usage): void {
    // Tool definitions are part of the prompt the server counted.
    const tools: ChatMessage[] = request.tools?.length ? [{ role: "system", content: JSON.stringify(request.tools) }] : [];
    const ratio = calibratedTokensPerChar([...tools, ...request.messages.map(asText)], usage.prompt_tokens);
    if (ratio !== undefined) this.ratios.set(request.model, ratio);
  }
}

function asText(message: AgentMessage): ChatMessage {
  if (message.role === "tool") return { role: "user", content: message.content };
  const calls = "tool_calls" in message ? message.tool_calls.map((call) => call.function.name + call.function.arguments).join("") : "";
  return { role: message.role, content: (message.content ?? "") + calls };
}
