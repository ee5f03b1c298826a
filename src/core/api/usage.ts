/** Token accounting shared by completions and chat. */
export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** `stop` or `length`; servers may send others (e.g. `content_filter`), so callers treat it as open. */
export type FinishReason = "stop" | "length" | (string & {});

/** `stop` accepts one string, several, or null. */
export type StopSequences = string | string[] | null;
