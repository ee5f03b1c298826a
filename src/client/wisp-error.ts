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

  constructor(kind: WispErrorKind, message: string, options: WispErrorOptions = {}) {
    super(message);
    this.kind = kind;
    if (options.status !== undefined) this.status = options.status;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }
}

export function isWispError(value: unknown, kind?: WispErrorKind): value is WispError {
  return value instanceof WispError && (kind === undefined || value.kind === kind);
}
