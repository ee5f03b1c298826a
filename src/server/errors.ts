// One error shape for every failure: {"error": {"message", "type", "param", "code"}}.
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { drainBody } from "./drain-body";
import { EngineBusyError, EngineInputError } from "./engine-input-error";
import { ImageModelLoadError, ModelLoadError } from "./model-load-error";

export type ApiErrorType =
  | "invalid_request_error"
  | "authentication_error"
  | "rate_limit_error"
  | "server_error";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type: ApiErrorType = "invalid_request_error",
    readonly param: string | null = null,
    readonly code: string | null = null,
    /** Sent as Retry-After: clients (the openai SDK, LiteLLM) wait that long before trying again. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/**
 * Seconds a client refused for a full queue is asked to wait: a queue's turn comes in about the
 * time of a short generation. Without it the openai SDK tries again within half a second, while
 * the same requests still hold every place.
 */
export const BUSY_RETRY_AFTER_SECONDS = 2;

/** A 429 for a full queue (text sequences, image generations). */
export function serverBusy(message: string): ApiError {
  return new ApiError(429, message, "rate_limit_error", null, "server_busy", BUSY_RETRY_AFTER_SECONDS);
}

/**
 * A model id the server does not serve: one 404 for every route that takes a model. OpenAI's 404s
 * are invalid_request_error with a code saying what was not found; SDKs and proxies (LiteLLM) read
 * those, and the spec has no not_found_error type.
 */
export function modelNotFound(id: string): ApiError {
  return new ApiError(404, `model '${id}' not found: see GET /v1/models`, "invalid_request_error", "model", "model_not_found");
}

/**
 * The shared store (the database) cannot answer now: the request gets a 503 that says so, never
 * a 500, and never passes a check it could not make.
 */
export class StoreUnavailableError extends Error {}

export function errorBody(e: ApiError) {
  return { error: { message: e.message, type: e.type, param: e.param, code: e.code } };
}

type ValidationIssue = NonNullable<FastifyError["validation"]>[number];

/** The top-level request field a fastify validation error is about. */
function validationParam(first: ValidationIssue): string | null {
  const pathParts = first.instancePath.split("/").filter(Boolean);
  const missing = (first.params as { missingProperty?: string }).missingProperty;
  if (missing && pathParts.length === 0) return missing;
  return pathParts[0] ?? null;
}

const describe = (issue: ValidationIssue): string => {
  const allowed = (issue.params as { allowedValues?: unknown[] }).allowedValues;
  return allowed ? `must be one of: ${allowed.join(", ")}` : (issue.message ?? "is invalid");
};

/** "messages[0].role must be one of: system, user" rather than ajv's bare wording. */
function validationMessage(issues: ValidationIssue[]): string {
  // The deepest issue is the branch the value meant: stop [""] is a list whose item is empty,
  // not "stop must be string" (the first alternative's complaint).
  const depth = (issue: ValidationIssue) => issue.instancePath.split("/").length;
  const first = issues.reduce((deepest, issue) => (depth(issue) > depth(deepest) ? issue : deepest));
  const where = first.instancePath.replace(/^\//, "").replace(/\/(\d+)/g, "[$1]").replace(/\//g, ".") || "body";
  // Alternatives (string or list, or null) fail once per branch: list the real ones, not "null".
  const branches = issues.filter(
    (i) => i.instancePath === first.instancePath && i.keyword !== "anyOf" && !(i.keyword === "type" && (i.params as { type?: string }).type === "null"),
  );
  return `${where} ${[...new Set((branches.length > 0 ? branches : [first]).map(describe))].join(" or ")}`;
}

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof EngineInputError) return new ApiError(400, error.message, "invalid_request_error", error.param, error.code);
  if (error instanceof EngineBusyError) return serverBusy(error.message);
  if (error instanceof StoreUnavailableError) return new ApiError(503, error.message, "server_error", null, "database_unavailable");
  if (error instanceof ModelLoadError) return new ApiError(500, error.message, "server_error", null, "model_load_failed");
  // Its reason names the server's files: it goes to the server's log (handleError), not to the client.
  if (error instanceof ImageModelLoadError) {
    return new ApiError(500, `image model '${error.modelId}' could not be loaded (the server's log says why); it is loaded again on the next request`, "server_error", "model", "model_load_failed");
  }
  const fe = error as FastifyError;
  if (fe.validation?.length) {
    return new ApiError(400, validationMessage(fe.validation), "invalid_request_error", validationParam(fe.validation[0]!), "invalid_value");
  }
  if (fe.code === "FST_ERR_CTP_BODY_TOO_LARGE") return new ApiError(413, "request body is too large", "invalid_request_error", null, "body_too_large");
  if (fe.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") return new ApiError(415, "send JSON (Content-Type: application/json)", "invalid_request_error");
  if (fe.code === "FST_ERR_CTP_EMPTY_JSON_BODY" || fe.statusCode === 400) {
    return new ApiError(400, `invalid JSON body: ${fe.message}`, "invalid_request_error", null, "invalid_json");
  }
  return new ApiError(500, "internal server error", "server_error");
}

export function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  if (error.retryAfterSeconds !== undefined) reply.header("retry-after", String(error.retryAfterSeconds));
  return reply.code(error.status).send(errorBody(error));
}

/** Bodies larger than this (or slower than the request timeout) are cut off rather than read to the end. */
const drainBytesPerLimit = 16;
const minDrainBytes = 64 * 1024 * 1024;

/**
 * Fastify error handler: logs server faults (never the body) to fastify's logger, a 500's reason
 * to `fault` too, and answers in the OpenAI shape. A body refused as too large is first read to its end (within bounds), so that the client, still
 * sending, gets to read the 413.
 */
export async function handleError(error: unknown, request: FastifyRequest, reply: FastifyReply, fault?: (reason: string) => void): Promise<FastifyReply> {
  const apiError = toApiError(error);
  if (apiError.status >= 500) {
    request.log.error({ err: error }, "request failed");
    // The server's own output (the editor's Wisp log): fastify's logger is off there. A 503 (the
    // team's database away) says so in its own lines, not once per request.
    if (apiError.status === 500) fault?.(error instanceof Error ? error.message : String(error));
  }
  if (apiError.status === 413) {
    const maxBytes = Math.max(minDrainBytes, drainBytesPerLimit * (request.server.initialConfig.bodyLimit ?? 0));
    await drainBody(request.raw, { maxBytes, maxMs: request.server.server.requestTimeout || 30_000 });
  }
  return sendError(reply, apiError);
}
