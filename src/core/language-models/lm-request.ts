/**
 * A request of the editor's own chat (messages of text, tool-call and tool-result parts, tools,
 * the tool mode, model options) as the body of `POST /v1/chat/completions`.
 */
import type { AgentChatRequest, AgentMessage, ChatTool, ToolCall } from "../api/chat";

export type LmPart =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "toolCall"; readonly callId: string; readonly name: string; readonly input: unknown }
  | { readonly kind: "toolResult"; readonly callId: string; readonly text: string };

export interface LmMessage {
  readonly role: "system" | "user" | "assistant";
  readonly parts: readonly LmPart[];
}

export interface LmTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema?: object;
}

export interface LmRequest {
  readonly model: string;
  readonly messages: readonly LmMessage[];
  readonly tools?: readonly LmTool[];
  /** The caller's tool mode is Required: the model must call one of the tools. */
  readonly toolsRequired: boolean;
  /** The caller's modelOptions: the sampling fields below are passed on, the rest ignored. */
  readonly modelOptions?: { readonly [name: string]: unknown };
  /** Defaults from wisp.chat.temperature and the model's maxOutputTokens. */
  readonly temperature: number;
  readonly maxTokens: number;
}

const numericOptions = ["temperature", "top_p", "top_k", "max_tokens", "seed", "presence_penalty", "frequency_penalty"] as const;

export function lmChatRequest(request: LmRequest): AgentChatRequest {
  const tools = (request.tools ?? []).map(toChatTool);
  return {
    model: request.model,
    messages: toAgentMessages(request.messages),
    temperature: request.temperature,
    max_tokens: request.maxTokens,
    ...sampling(request.modelOptions ?? {}),
    // The server's prompt_tokens calibrate the token estimate.
    stream_options: { include_usage: true },
    ...(tools.length > 0 ? { tools, tool_choice: request.toolsRequired ? "required" : "auto" } : {}),
  };
}

export function toAgentMessages(messages: readonly LmMessage[]): AgentMessage[] {
  return messages.flatMap(toAgentMessage);
}

export function toChatTool(tool: LmTool): ChatTool {
  const parameters = (tool.inputSchema as Record<string, unknown> | undefined) ?? { type: "object", properties: {} };
  return { type: "function", function: { name: tool.name, description: tool.description, parameters } };
}

function toAgentMessage(message: LmMessage): AgentMessage[] {
  const text = message.parts.map((part) => (part.kind === "text" ? part.text : "")).join("");
  if (message.role === "system") return [{ role: "system", content: text }];
  if (message.role === "assistant") {
    const calls = message.parts.flatMap((part): ToolCall[] =>
      part.kind === "toolCall" ? [{ id: part.callId, type: "function", function: { name: part.name, arguments: JSON.stringify(part.input ?? {}) } }] : [],
    );
    return calls.length > 0 ? [{ role: "assistant", content: text === "" ? null : text, tool_calls: calls }] : [{ role: "assistant", content: text }];
  }
  // The editor puts tool results in a user message; the API wants them as `tool` messages right
  // after the assistant's calls, so they come before the user's own words.
  const results = message.parts.flatMap((part): AgentMessage[] => (part.kind === "toolResult" ? [{ role: "tool", tool_call_id: part.callId, content: part.text }] : []));
  return results.length > 0 && text === "" ? results : [...results, { role: "user", content: text }];
}

function sampling(options: { readonly [name: string]: unknown }): Partial<AgentChatRequest> {
  const picked: Record<string, unknown> = {};
  for (const name of numericOptions) if (typeof options[name] === "number") picked[name] = options[name];
  const stop = options.stop;
  if (typeof stop === "string" || (Array.isArray(stop) && stop.every((s) => typeof s === "string"))) picked.stop = stop;
  return picked as Partial<AgentChatRequest>;
}
