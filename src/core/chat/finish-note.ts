import { hasTextToolCall } from "../agent/text-tool-call";
import type { AssistantTurn } from "./conversation";
import { answerText } from "./thinking";
import { cutAt } from "../base/surrogates";

/** The agent ended on a tool call the model wrote as text: nothing ran, and the server is why. */
const textToolCallNote =
  "The model wrote a tool call as text, so no tool ran and the task ended: the server did not read it as a call (llama.cpp's server needs --jinja; vLLM --enable-auto-tool-choice and the model's --tool-call-parser)";

/**
 * Why a complete answer ended, when the user should know: anything but the model's own end
 * (`stop`) leaves the answer unfinished or empty, and the panel says so under it.
 */
export function finishNote(turn: AssistantTurn): string {
  switch (turn.finishReason) {
    case undefined:
    case "stop":
      if (turn.agent?.end === "done" && hasTextToolCall(answerText(turn.text))) return textToolCallNote;
      // A task that ran tools may end without words; one that did nothing should say why.
      return answerText(turn.text).trim() === "" && (!turn.agent || turn.agent.steps.length === 0) ? "The model sent an empty answer" : "";
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
