/** The playground's answer as it streams in (or arrives whole): text, finish reason, usage, error. */
import { readErrorDetail } from "../api/error-body";
import { SSE_DONE } from "../api/sse";
import type { Usage } from "../api/usage";
import { addToolCallDeltas, toolCallsOf, type ToolCall } from "./chat-tools";
import { cutAt } from "../base/surrogates";

export interface ChatAnswer {
  readonly content: string;
  /** The calls the model made, when it made any. */
  readonly toolCalls?: readonly ToolCall[];
  readonly finishReason: string | null;
  readonly usage?: Usage;
  readonly error?: string;
  /** The stream ended with [DONE] (or a whole response arrived). */
  readonly done: boolean;
}

export const emptyAnswer: ChatAnswer = { content: "", finishReason: null, done: false };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

function readUsage(value: unknown): Usage | undefined {
  if (!isRecord(value)) return undefined;
  const { prompt_tokens: p, completion_tokens: c, total_tokens: t } = value;
  if (typeof p !== "number" || typeof c !== "number") return undefined;
  return { prompt_tokens: p, completion_tokens: c, total_tokens: typeof t === "number" ? t : p + c };
}

/** Applies the data of one SSE event of a chat stream. */
export function applyStreamEvent(answer: ChatAnswer, data: string): ChatAnswer {
  if (data === SSE_DONE) return { ...answer, done: true };
  let chunk: unknown;
  try {
    chunk = JSON.parse(data);
  } catch {
    return { ...answer, error: `the server sent something that is not JSON: ${cutAt(data, 80)}` };
  }
  const error = isRecord(chunk) && "error" in chunk ? readErrorDetail(chunk) : undefined;
  if (error) return { ...answer, error: error.message };
  if (!isRecord(chunk)) return answer;
  let next = answer;
  const usage = readUsage(chunk.usage);
  if (usage) next = { ...next, usage };
  const choice = Array.isArray(chunk.choices) ? (chunk.choices[0] as unknown) : undefined;
  if (isRecord(choice)) {
    const delta = isRecord(choice.delta) ? choice.delta : {};
    if (typeof delta.content === "string" && delta.content !== "") next = { ...next, content: next.content + delta.content };
    if (Array.isArray(delta.tool_calls)) next = { ...next, toolCalls: addToolCallDeltas(next.toolCalls ?? [], delta.tool_calls) };
    if (typeof choice.finish_reason === "string") next = { ...next, finishReason: choice.finish_reason };
  }
  return next;
}

/** The answer of a whole (non-streamed) chat.completion body. */
export function answerFromResponse(body: unknown): ChatAnswer {
  const error = isRecord(body) && "error" in body ? readErrorDetail(body) : undefined;
  if (error) return { ...emptyAnswer, error: error.message, done: true };
  const choice = isRecord(body) && Array.isArray(body.choices) ? (body.choices[0] as unknown) : undefined;
  const message = isRecord(choice) && isRecord(choice.message) ? choice.message : {};
  const toolCalls = toolCallsOf(message);
  return {
    content: typeof message.content === "string" ? message.content : "",
    ...(toolCalls.length > 0 ? { toolCalls } : {}),
    finishReason: isRecord(choice) && typeof choice.finish_reason === "string" ? choice.finish_reason : null,
    usage: isRecord(body) ? readUsage(body.usage) : undefined,
    done: true,
  };
}
