/** The `error` object inside every OpenAI-shaped error response. */
export interface ApiErrorDetail {
  message: string;
  type: string;
  param: string | null;
  code: string | null;
}

/** `{"error": {...}}`, the body of every non-2xx response. */
export interface ApiErrorBody {
  error: ApiErrorDetail;
}

export function makeErrorBody(
  message: string,
  type: string,
  code: string | null = null,
  param: string | null = null,
): ApiErrorBody {
  return { error: { message, type, param, code } };
}

/**
 * Reads the `error` object from a parsed body (or the object itself, or an `error` that is only
 * its message), tolerating servers that omit `type`, `param` or `code`. Undefined when there is no usable message.
 */
export function readErrorDetail(body: unknown): ApiErrorDetail | undefined {
  const inner = isRecord(body) ? body.error : undefined;
  // Hugging Face's TGI and LM Studio send the message itself: {"error": "Input validation error: ..."}.
  if (typeof inner === "string" && inner !== "") return { message: inner, type: "error", param: null, code: null };
  const candidate = isRecord(inner) ? inner : body;
  if (!isRecord(candidate) || typeof candidate.message !== "string") return undefined;
  return {
    message: candidate.message,
    type: typeof candidate.type === "string" ? candidate.type : "error",
    param: typeof candidate.param === "string" ? candidate.param : null,
    code: typeof candidate.code === "string" ? candidate.code : null,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}
