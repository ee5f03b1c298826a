import type { FinishReason, StopSequences, Usage } from "./usage";

/** Body of `POST /v1/completions` (the fields Wisp speaks; `stream` is set by the sender). */
export interface CompletionRequest {
  model: string;
  prompt: string;
  /** Text after the cursor, for fill-in-the-middle. */
  suffix?: string;
  max_tokens?: number;
  temperature?: number;
  top_p?: number;
  top_k?: number;
  n?: number;
  stop?: StopSequences;
  presence_penalty?: number;
  frequency_penalty?: number;
  logit_bias?: Record<string, number>;
  logprobs?: number | null;
  seed?: number;
  echo?: boolean;
  user?: string;
}

export interface CompletionChoice {
  text: string;
  index: number;
  logprobs: unknown;
  finish_reason: FinishReason | null;
}

/** `text_completion` object; streamed chunks share this shape. */
export interface CompletionResponse {
  id: string;
  object: "text_completion";
  created: number;
  model: string;
  system_fingerprint?: string;
  choices: CompletionChoice[];
  usage?: Usage | null;
}
