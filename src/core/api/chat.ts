import type { FinishReason, StopSequences, Usage } from "./usage";

export type ChatRole = "system" | "user" | "assistant";

export interface ChatMessage {
  role: ChatRole;
  content: string;
}

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
  response_format?: { type: "json_object" | "text" };
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
  delta: { role?: "assistant"; content?: string | null };
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
