import type { FinishReason, StopSequences, Usage } from "./usage";

export type ChatRole = "system" | "user" | "assistant";

/** A plain message: what the chat panel sends. */
export interface ChatMessage {
  role: ChatRole;
  content: string;
}

/** A function call the model made, as the API carries it (arguments: a JSON text). */
export interface ToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** The model's turn that called tools (agent mode). */
export interface AssistantToolCallMessage {
  role: "assistant";
  content: string | null;
  tool_calls: ToolCall[];
}

/** A tool's result, answering the call with the same id. */
export interface ToolResultMessage {
  role: "tool";
  tool_call_id: string;
  content: string;
}

/** Any message of an agent's conversation. */
export type AgentMessage = ChatMessage | AssistantToolCallMessage | ToolResultMessage;

/** Body of `POST /v1/chat/completions` (the fields Wisp speaks; `stream` is set by the sender). */
export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  max_tokens?: number;
  temperature?: number;
  top_p?: number;
  top_k?: number;
  n?: number;
  stream_options?: { include_usage?: boolean };
  stop?: StopSequences;
  presence_penalty?: number;
  frequency_penalty?: number;
  logit_bias?: Record<string, number>;
  logprobs?: boolean;
  top_logprobs?: number;
  seed?: number;
  user?: string;
  /** vLLM-style constrained output: a JSON schema the reply must satisfy. */
  guided_json?: Record<string, unknown>;
  response_format?: { type: "json_object" | "text" } | { type: "json_schema"; json_schema: { name: string; strict?: boolean; schema: Record<string, unknown> } };
  tools?: ChatTool[];
  tool_choice?: "auto" | "none" | "required" | { type: "function"; function: { name: string } };
}

export interface ChatChoice {
  index: number;
  message: { role: "assistant"; content: string | null; tool_calls?: unknown[]; function_call?: unknown };
  logprobs: unknown;
  finish_reason: FinishReason | null;
  stop_reason?: string | number | null;
}

/** `chat.completion` object. */
export interface ChatResponse {
  id: string;
  object: "chat.completion";
  created: number;
  model: string;
  system_fingerprint?: string;
  choices: ChatChoice[];
  usage?: Usage | null;
}

export interface ChatChunkChoice {
  index: number;
  delta: { role?: "assistant"; content?: string | null; tool_calls?: ToolCallDelta[] };
  logprobs?: unknown;
  finish_reason: FinishReason | null;
}

/** `chat.completion.chunk` object, one per SSE event. */
export interface ChatChunk {
  id: string;
  object: "chat.completion.chunk";
  created: number;
  model: string;
  system_fingerprint?: string;
  choices: ChatChunkChoice[];
  usage?: Usage | null;
}

/** A chat request whose conversation holds tool calls and their results. */
export type AgentChatRequest = Omit<ChatRequest, "messages"> & { messages: AgentMessage[] };

/** A piece of a streamed tool call: the first carries id and name, later ones more of the arguments. */
export interface ToolCallDelta {
  index: number;
  id?: string;
  type?: "function";
  function?: { name?: string; arguments?: string };
}

/** A function the model may call (`tools` of a chat request). */
export interface ChatTool {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
}
