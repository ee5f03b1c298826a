/** One request to a text-completion endpoint, as the pipeline needs it. */
export interface CompletionStreamRequest {
  readonly model: string;
  readonly prompt: string;
  /** Only in `server` template mode: the server applies the model's own FIM tokens. */
  readonly suffix?: string;
  readonly maxTokens: number;
  readonly temperature: number;
  readonly stop: readonly string[];
}

/**
 * The network seam: text deltas of a streamed `/v1/completions` call. It must stop generating
 * when `signal` aborts or when the consumer stops iterating. Errors may carry a string `kind`.
 */
export type CompletionStream = (req: CompletionStreamRequest, signal: AbortSignal) => AsyncIterable<string>;

/** Where the cursor is, in editor-neutral terms. */
export interface CompletionInput {
  readonly uri: string;
  /** Workspace-relative path (used by repo-level templates). */
  readonly path: string;
  /** Workspace (repository) name, for templates with a repo header. */
  readonly workspace?: string;
  readonly languageId: string;
  /** Text before the cursor; may be only the tail of the document (see prefixOffset). */
  readonly prefix: string;
  /** Document offset at which `prefix` starts, so windows stay stable across keystrokes. */
  readonly prefixOffset: number;
  /** Text after the cursor (may be truncated by the caller). */
  readonly suffix: string;
  /**
   * The document goes on past `suffix` (the caller cut it). Said explicitly: `suffix`'s length
   * does not tell, since the caller may have shortened it (CRLF turned into LF). Without it, a
   * suffix of the adapter's full size counts as cut.
   */
  readonly suffixCut?: boolean;
  readonly indent: { readonly insertSpaces: boolean; readonly tabSize: number };
  /** Explicitly invoked (command or keybinding): no debounce, no cached empty result. */
  readonly manual: boolean;
  /**
   * When the document last changed, on the pipeline's clock, if the editor knows: the debounce
   * counts from the keystroke rather than from the (later) provider call.
   */
  readonly editedAt?: number;
}

export interface CompletionSettings {
  readonly model: string;
  /** `auto`, `server`, or a template family id. */
  readonly template: string;
  /** The server lists the model as filling in the middle with its own tokens (`auto` then picks `server`). */
  readonly serverFim?: boolean;
  readonly maxTokens: number;
  readonly debounceMs: number;
  readonly temperature?: number;
  readonly maxLines?: number;
}

export type CompletionSource = "network" | "reused" | "cache" | "type-through";

/**
 * Whether the server answered just now: the request's own stream, or a stream still running that
 * the typing went on into. Not an answer kept from before (the cache, typing through).
 */
export function fromServer(source: CompletionSource): boolean {
  return source === "network" || source === "reused";
}

export type EmptyReason = "model-empty" | "filtered" | "cached-empty";

interface Timed {
  readonly latencyMs: number;
}

/** Every way the pipeline can end. */
export type CompletionOutcome = Timed &
  (
    | {
        readonly kind: "shown";
        /** Inserted at the cursor... */
        readonly text: string;
        /** ...replacing this many characters after it on its line (closers the editor auto-inserted). */
        readonly replace: number;
        readonly source: CompletionSource;
        readonly multiline: boolean;
        /** The first line of a multi-line suggestion still streaming; the rest comes later. */
        readonly partial?: boolean;
      }
    | { readonly kind: "debounced" }
    | { readonly kind: "cancelled" }
    | { readonly kind: "empty"; readonly reason: EmptyReason }
    | { readonly kind: "error"; readonly errorKind: string; readonly message: string }
    /** Automatic requests are paused after an error (see ErrorBackoff). */
    | { readonly kind: "backoff"; readonly errorKind: string; readonly retryInMs: number }
  );

export type OutcomeKind = CompletionOutcome["kind"];
