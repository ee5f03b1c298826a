/** The OpenAI-shaped wire types, in one import. Functions live in their own modules (sse, error-body, retry-after). */
export type { ModelInfo, ModelList } from "./models";
export type { Usage, FinishReason, StopSequences } from "./usage";
export type { CompletionRequest, CompletionChoice, CompletionResponse } from "./completions";
export type {
  ChatRole,
  ChatMessage,
  ChatRequest,
  ChatChoice,
  ChatResponse,
  ChatChunk,
  ChatChunkChoice,
  AgentChatRequest,
  AgentMessage,
  ChatTool,
  ToolCall,
  ToolCallDelta,
} from "./chat";
export type { ImageExtension, ImageRequest, ImageData, ImageResponse } from "./images";
export type { ApiErrorBody, ApiErrorDetail } from "./error-body";
export type { SseEvent } from "./sse";
