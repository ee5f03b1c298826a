export type WispErrorKind =
  | "no-key"
  | "bad-key"
  | "forbidden"
  | "unknown-model"
  | "bad-request"
  | "rate-limited"
  | "unreachable"
  | "timeout"
  | "malformed"
  | "server"
  | "cancelled";

export interface WispErrorOptions {
  status?: number;
  retryAfterMs?: number;
  /** The request field the server's error names (OpenAI's `error.param`), e.g. `model` or `width`. */
  param?: string;
  /** The server's error code (OpenAI's `error.code`), e.g. `model_not_found`. */
  code?: string;
}

/**
 * A failure of a Wisp API call, classified so that the UI can say what to do about it.
 * The message is written for the user and never contains the API key.
 */
export class WispError extends Error {
  override readonly name = "WispError";
  readonly kind: WispErrorKind;
  readonly status?: number;
  readonly retryAfterMs?: number;
  readonly param?: string;
  readonly code?: string;

  constructor(kind: WispErrorKind, message: string, options: WispErrorOptions = {}) {
    super(message);
    this.kind = kind;
    if (options.status !== undefined) this.status = options.status;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
    if (options.param !== undefined) this.param = options.param;
    if (options.code !== undefined) this.code = options.code;
  }
}

export function isWispError(value: unknown, kind?: WispErrorKind): value is WispError {
  return value instanceof WispError && (kind === undefined || value.kind === kind);
}
