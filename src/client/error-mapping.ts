import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from "openai";
import { readErrorDetail } from "../core/api/error-body";
import { parseRetryAfter } from "../core/api/retry-after";
import { cutAt } from "../core/base/surrogates";
import { describeHtmlPage } from "./html-page";
import { WispError, type WispErrorKind, type WispErrorOptions } from "./wisp-error";

/** What the mapper needs to write a message a user can act on. */
export interface ErrorContext {
  /** The base URL as shown to the user (no credentials). */
  baseUrl: string;
  /** Redacted from every server-provided text, in case a server echoes it. */
  apiKey: string | undefined;
  model?: string;
  timeoutMs: number;
  /** True when the caller's own signal aborted. */
  cancelled: boolean;
  /** True when Wisp's own idle timer aborted a stream. */
  timedOut: boolean;
}

const maxServerMessage = 300;

/** Thrown by response parsing; the message completes "The response ... is not what ... sends: ___". */
export class MalformedResponseError extends Error {}

/** Classifies any failure of an API call into a WispError. */
export function toWispError(error: unknown, ctx: ErrorContext): WispError {
  if (error instanceof WispError) return error;
  if (ctx.cancelled || error instanceof APIUserAbortError) {
    return new WispError("cancelled", "The request was cancelled.");
  }
  if (ctx.timedOut || error instanceof APIConnectionTimeoutError) {
    return timeoutError(ctx);
  }
  if (error instanceof APIError && typeof error.status === "number") {
    return fromStatus(error.status, error, ctx);
  }
  if (error instanceof APIConnectionError) return unreachableError(error, ctx);
  if (error instanceof MalformedResponseError) return malformedError(ctx, error.message);
  if (error instanceof SyntaxError) return malformedError(ctx, "its body is not valid JSON");
  if (error instanceof APIError) {
    // A status-less APIError is an `error` object sent inside an otherwise successful stream.
    return new WispError("server", `The server at ${ctx.baseUrl} reported an error: ${serverText(error, ctx)}`);
  }
  if (isTransportError(error)) return connectionLostError(ctx);
  return new WispError("server", `Request to ${ctx.baseUrl} failed: ${redact(describe(error), ctx.apiKey)}`);
}

/** A 400 refusing `stream_options` as a field the server does not know ("Unrecognized request argument supplied: stream_options"). */
export function refusesStreamOptions(error: unknown): boolean {
  if (!(error instanceof APIError) || (error.status !== 400 && error.status !== 422)) return false;
  // Naming the field as the one refused: a message merely quoting the request names it too.
  return (
    error.param === "stream_options" ||
    /\b(unrecognized|unknown|unsupported|extra)\b[^.]{0,40}[\s:'"`]stream_options\b/i.test(error.message) ||
    /\bstream_options['"`]?\s+(is\s+)?(not\s+(supported|permitted|allowed)|unsupported|unrecognized)\b/i.test(error.message)
  );
}

export function timeoutError(ctx: Pick<ErrorContext, "baseUrl" | "timeoutMs">): WispError {
  const seconds = Math.round(ctx.timeoutMs / 100) / 10;
  return new WispError("timeout", `${ctx.baseUrl} did not respond within ${seconds} s. Is the server overloaded?`);
}

export function malformedError(ctx: Pick<ErrorContext, "baseUrl">, what: string): WispError {
  return new WispError(
    "malformed",
    `The response from ${ctx.baseUrl} is not what an OpenAI-compatible API sends: ${what}.`,
  );
}

export function connectionLostError(ctx: Pick<ErrorContext, "baseUrl">): WispError {
  return new WispError("unreachable", `The connection to ${ctx.baseUrl} was lost before the response was complete.`);
}

function fromStatus(status: number, error: APIError, ctx: ErrorContext): WispError {
  const text = serverText(error, ctx);
  const retryAfterMs = retryAfter(error.headers);
  // A 503 "loading" may say when to come back, too.
  const options: WispErrorOptions = { status };
  if (retryAfterMs !== undefined) options.retryAfterMs = retryAfterMs;
  // Which field the server refused lets a command say what to change (the model, the size).
  if (typeof error.param === "string" && error.param !== "") options.param = error.param;
  if (typeof error.code === "string" && error.code !== "") options.code = error.code;
  const make = (kind: WispErrorKind, message: string) => new WispError(kind, message, options);
  // A 404 about the model names it; other 404s (e.g. "Invalid URL") mean the base URL is wrong.
  const model = ctx.model;
  const aboutModel =
    model !== undefined &&
    (error.code === "model_not_found" ||
      (status === 404 && (error.param === "model" || /model/i.test(text) || text.includes(model))));
  const blockPage = status === 403 ? htmlPage(error) : undefined;
  switch (true) {
    case status >= 300 && status < 400:
      return make("unreachable", redirectMessage(status, error.headers, ctx));
    case status === 401:
      // The server's own text is left out: some echo a masked form of the key.
      return make("bad-key", `${ctx.baseUrl} rejected the API key (401). Set a valid key with "Wisp: Set API Key".`);
    case status === 403 && blockPage !== undefined:
      // A web filter's or proxy's block page: the key was never looked at.
      return make("unreachable", `${ctx.baseUrl} answered 403 with ${blockPage}`);
    case status === 403:
      return make("forbidden", `The API key is not allowed to do this on ${ctx.baseUrl} (403): ${text}`);
    case aboutModel:
      return make(
        "unknown-model",
        `The model "${model}" is not available on ${ctx.baseUrl}. Pick another with "Wisp: Select Model". (${text})`,
      );
    case status === 404:
      return make(
        "unreachable",
        `${ctx.baseUrl} has no such endpoint (404). Check that the base URL is the API root, usually ending in /v1.`,
      );
    case status === 429: {
      const wait = retryAfterMs === undefined ? "" : ` Try again in ${Math.ceil(retryAfterMs / 1000)} s.`;
      // The server's reason says which limit: OpenAI's exhausted quota (insufficient_quota) is a 429 too.
      return make("rate-limited", `${ctx.baseUrl} is rate limiting requests (429): ${text.replace(/\.$/, "")}.${wait}`);
    }
    case status >= 400 && status < 500:
      return make("bad-request", `${ctx.baseUrl} refused the request (${status}): ${text}`);
    default:
      return make("server", `The server at ${ctx.baseUrl} failed (${status}): ${text}`);
  }
}

/**
 * Where the server sends Wisp instead, as an API root to set: the location without the endpoint
 * asked for, and without a query or credentials (a sign-in page's may hold a token).
 */
function redirectMessage(status: number, headers: Headers | undefined, ctx: ErrorContext): string {
  let target: URL | undefined;
  try {
    target = new URL(headers?.get("location") ?? "", `${ctx.baseUrl}/`);
  } catch {
    target = undefined;
  }
  if (target === undefined || (target.protocol !== "http:" && target.protocol !== "https:")) {
    return `${ctx.baseUrl} answered with a redirect (${status}) Wisp does not follow. Check the wisp.baseUrl setting.`;
  }
  const root = `${target.origin}${target.pathname.replace(/\/(models|chat\/completions|completions|images\/generations)\/*$/, "")}`;
  return `${ctx.baseUrl} redirects to ${redact(root, ctx.apiKey)} (${status}). If that is the server's API root, set wisp.baseUrl to it.`;
}

function retryAfter(headers: Headers | undefined): number | undefined {
  const ms = Number(headers?.get("retry-after-ms") ?? Number.NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  return parseRetryAfter(headers?.get("retry-after"));
}

/**
 * Node's codes for a certificate it does not trust: a self-signed server, or a proxy or company CA
 * that re-signs TLS (the usual cause behind a firewall) that the system's store does not hold.
 */
const untrustedCertificate = new Set([
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "CERT_UNTRUSTED",
]);

function unreachableError(error: APIConnectionError, ctx: ErrorContext): WispError {
  const certificate = rootCause(error, (code) => untrustedCertificate.has(code));
  if (certificate.code !== undefined) {
    return new WispError(
      "unreachable",
      `Cannot reach ${ctx.baseUrl}: its TLS certificate is not trusted (${redact(certificate.message, ctx.apiKey)}). If a proxy or your organisation signs it, its CA must be in the system's trusted certificates, which VS Code uses with http.systemCertificates.`,
    );
  }
  const { code, message } = rootCause(error);
  const reason =
    code === "ECONNREFUSED"
      ? "the connection was refused. Is the server running?"
      : code === "ENOTFOUND" || code === "EAI_AGAIN"
        ? "the host name could not be resolved."
        : `${redact(code ?? message, ctx.apiKey)}.`;
  return new WispError("unreachable", `Cannot reach ${ctx.baseUrl}: ${reason} Check the wisp.baseUrl setting.`);
}

/**
 * Node's fetch wraps the socket error a few levels deep (TypeError "fetch failed" -> cause ->
 * AggregateError): the first code `wanted` (an `E...` one) on the way down, and the innermost message.
 */
function rootCause(error: unknown, wanted: (code: string) => boolean = (code) => code.startsWith("E")): { code?: string; message: string } {
  let message = error instanceof Error ? error.message : String(error);
  for (let current: unknown = error, depth = 0; current && depth < 6; depth++) {
    const record = current as { code?: unknown; cause?: unknown; errors?: unknown[]; message?: unknown };
    if (typeof record.message === "string" && record.message !== "") message = record.message;
    if (typeof record.code === "string" && wanted(record.code)) return { code: record.code, message };
    current = record.cause ?? record.errors?.[0];
  }
  return { message };
}

/** An undici body read that failed because the socket closed ("terminated", "other side closed"). */
function isTransportError(error: unknown): boolean {
  return error instanceof TypeError && (error.message === "terminated" || rootCause(error).code !== undefined);
}

/** What the error's body is when it is an HTML page (the SDK keeps such a body in its message). */
function htmlPage(error: APIError): string | undefined {
  return describeHtmlPage(error.message.replace(/^\d{3} /, ""));
}

function serverText(error: APIError, ctx: ErrorContext): string {
  // The SDK keeps the body's `error`, which some servers send as the message alone.
  const detail = readErrorDetail({ error: error.error });
  // Without a JSON error body the SDK puts the raw text in the message, after the status.
  const raw = error.message.replace(/^\d{3} /, "");
  const text = detail?.message ?? (raw === "status code (no body)" ? "no details given" : (htmlPage(error) ?? raw));
  return redact(truncate(text), ctx.apiKey);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function truncate(text: string): string {
  const single = text.replace(/\s+/g, " ").trim();
  return single.length > maxServerMessage ? `${cutAt(single, maxServerMessage)}…` : single;
}

export function redact(text: string, apiKey: string | undefined): string {
  return apiKey ? text.split(apiKey).join("***") : text;
}
