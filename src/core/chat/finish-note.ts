import type { AssistantTurn } from "./conversation";
import { answerText } from "./thinking";
import { cutAt } from "../completion/surrogates";

/**
 * Why a complete answer ended, when the user should know: anything but the model's own end
 * (`stop`) leaves the answer unfinished or empty, and the panel says so under it.
 */
export function finishNote(turn: AssistantTurn): string {
  switch (turn.finishReason) {
    case undefined:
    case "stop":
      return answerText(turn.text).trim() === "" && !turn.agent ? "The model sent an empty answer" : "";
    case "length":
      // A server cuts max_tokens to the room its context has left (Wisp's, vLLM, llama.cpp's):
      // then raising wisp.chat.maxTokens changes nothing.
      if (turn.maxTokens !== undefined && turn.usage !== undefined && turn.usage.completion_tokens < turn.maxTokens) return "Cut off: the model's context is full (start a new chat, or /compact this one)";
      return "Cut off at the max tokens limit (wisp.chat.maxTokens)";
    case "content_filter":
      return "Cut off by the server's content filter";
    case "tool_calls":
    case "function_call":
      return "The model asked to call a tool, which Ask mode does not run (Agent mode does)";
    default:
      return `Ended by the server: ${cutAt(turn.finishReason, 40)}`;
  }
}
