import type { LlamaGrammar, Token } from "node-llama-cpp";

export type FinishReason = "stop" | "length";

export interface SamplingSettings {
  temperature: number;
  topP?: number;
  topK?: number;
  seed?: number;
  presencePenalty: number;
  frequencyPenalty: number;
  /** OpenAI logit_bias: token id -> bias added to the logit. */
  logitBias: ReadonlyMap<Token, number>;
  grammar?: LlamaGrammar;
}

/**
 * Token healing: the prompt's last token was taken off, and the answer must start with its text,
 * which is not returned. A prompt cut at the cursor often ends in a piece of a token (` ` before
 * `require`, `Defa` of `DefaultClient`) that the model rarely saw end a text; let it choose the
 * whole token instead.
 */
export interface TokenHealing {
  /** The token taken off the prompt's end. */
  token: Token;
  /** Its text: the first sampled token must start with it. */
  text: string;
}

/** A fill-in-the-middle prompt's own file, as a one-line answer may use it (see line-candidates.ts). */
export interface FileLines {
  /** Lines copied from the file that may continue the cursor's line. */
  readonly lines: readonly string[];
  /** The names a line would use that only other top-level items of the file declare (see out-of-scope-names.ts). */
  readonly outOfScope: (line: string) => readonly string[];
}

export interface GenerationRequest {
  prompt: readonly Token[];
  heal?: TokenHealing;
  /** The request field the prompt came from, named in errors about it. */
  promptParam: "prompt" | "messages";
  /**
   * What a greedy one-line fill-in-the-middle request may take from its file (see
   * line-candidates.ts): it is answered with the copied line the model finds most likely (see
   * line-choice.ts), or else with the model's own line, checked for names out of scope (see
   * scoped-choice.ts).
   */
  file?: FileLines;
  n: number;
  maxTokens: number;
  stop: readonly string[];
  sampling: SamplingSettings;
  /** undefined: no logprobs; otherwise how many alternatives per token (0 = only the chosen one). */
  topLogprobs?: number;
  signal: AbortSignal;
  /** Called once the prompt is evaluated, before the first token. */
  onPromptReady?: (stats: PromptStats) => void;
  /** Called with text that is final (stop strings already removed) as it is generated. */
  onText?: (choice: number, text: string, logprobs: TokenLogprob[]) => void;
}

export interface TokenLogprob {
  token: string;
  bytes: number[];
  logprob: number;
  top: { token: string; bytes: number[]; logprob: number }[];
}

export interface ChoiceResult {
  text: string;
  tokens: number;
  finishReason: FinishReason;
  /** The stop string that ended the choice, if one did. */
  stopString?: string;
  logprobs?: TokenLogprob[];
  /** Input lookup: tokens guessed, and confirmed by the model. */
  lookup?: { predicted: number; accepted: number };
  /** Tokens the engine generated once the server knew the client had left (thrown away). */
  afterAbort?: number;
}

export interface PromptStats {
  /** Prompt tokens that had to be evaluated. */
  evaluated: number;
  /** Prompt tokens reused from a sequence's earlier state. */
  cached: number;
}

export interface GenerationResult {
  choices: ChoiceResult[];
  promptTokens: number;
  completionTokens: number;
  prompt: PromptStats;
  /** The choices' afterAbort, summed. */
  tokensAfterAbort: number;
}
