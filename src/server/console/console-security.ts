// What guards the console: response headers (strict CSP, no framing, no caching, no referrer),
// the session cookie, and the checks that turn away cross-site requests.
import { timingSafeEqual, createHash } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";

/** Only the console's own script, styles and API; images also as data: URIs (generated ones). */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join("; ");

export const CSRF_HEADER = "x-wisp-csrf";

export function setSecurityHeaders(reply: FastifyReply): void {
  reply.header("content-security-policy", CONSOLE_CSP);
  reply.header("x-content-type-options", "nosniff");
  reply.header("x-frame-options", "DENY");
  // The login URL carries the token: no address goes to another site. (Not "no-referrer":
  // browsers then send "Origin: null" with form posts, and the origin check needs the origin.)
  reply.header("referrer-policy", "same-origin");
  reply.header("cross-origin-opener-policy", "same-origin");
  reply.header("cross-origin-resource-policy", "same-origin");
  reply.header("cache-control", "no-store");
}

/**
 * Cookies are shared by every port of a host: the name carries the port, so two local servers
 * (or a test server beside a real one) keep separate sessions. It is the port the browser
 * addressed (the Host header's), so replicas behind one balancer share the cookie.
 */
export function sessionCookieName(request: FastifyRequest): string {
  const host = request.headers.host ?? "";
  const port = /:(\d+)$/.exec(host)?.[1] ?? (host === "" ? String(request.socket.localPort ?? 0) : request.protocol === "https" ? "443" : "80");
  return `wisp_console_${port}`;
}

export function readCookie(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** HttpOnly (no script reads it), SameSite=Strict (no other site's page sends it), whole host. */
export function sessionCookie(name: string, value: string, secure: boolean): string {
  return `${name}=${value}; Path=/; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;
}

/**
 * Whether the browser reached the console over https: this server's own TLS, a proxy that ends
 * TLS in front of it (which says so in X-Forwarded-Proto or Forwarded), or an https page that
 * posted the login form. Such a session's cookie is Secure, so the browser never sends it over
 * plain http to the same host. A false claim only costs its sender the cookie (browsers keep
 * Secure cookies from https pages and from http://localhost, nothing else).
 */
export function reachedOverHttps(request: FastifyRequest): boolean {
  if (request.protocol === "https") return true;
  const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value)?.split(",")[0]?.trim().toLowerCase();
  if (first(request.headers["x-forwarded-proto"]) === "https") return true;
  if (/(?:^|;)\s*proto=(?:"https"|https)\s*(?:;|$)/i.test(first(request.headers.forwarded) ?? "")) return true;
  return first(request.headers.origin)?.startsWith("https:") ?? false;
}

export const clearedCookie = (name: string): string => `${name}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`;

/**
 * A state-changing request must come from a page of this origin: browsers send Origin on every
 * POST, and Sec-Fetch-Site when they know it. Requests with neither come from no browser page.
 */
export function fromSameOrigin(request: FastifyRequest): boolean {
  const site = request.headers["sec-fetch-site"];
  if (site !== undefined && site !== "same-origin") return false;
  const origin = request.headers.origin;
  if (origin === undefined) return site === "same-origin";
  let page: URL;
  try {
    page = new URL(origin);
  } catch {
    return false; // "null" (a sandboxed frame, a file) and anything else unreadable.
  }
  // The host decides, not the scheme: behind a proxy that ends TLS (a tunnel, a remote editor's
  // port forwarding) the page is https while the request reaches this server as http.
  return (page.protocol === "http:" || page.protocol === "https:") && page.host === (request.headers.host ?? "").toLowerCase();
}

const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();

/** Constant-time comparison of a header value with the expected secret. */
export function matchesSecret(candidate: unknown, expected: string): boolean {
  return typeof candidate === "string" && timingSafeEqual(digest(candidate), digest(expected));
}

/**
 * A URL for the access log: the path only (a query string can carry anything, API keys and login
 * tokens included), with login codes replaced.
 */
export function redactUrl(url: string): string {
  return url.replace(/[?#].*$/s, "").replace(/^\/login\/.+/, "/login/[redacted]");
}
