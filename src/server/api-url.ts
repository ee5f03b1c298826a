// A base URL written with a slash too many still reaches the API: "http://host:8765/" + "/v1/..."
// (a script's $BASE/v1), "http://host:8765/v1/" + "/chat/completions" (clients that join the base
// URL and the path as text: Zed, Open WebUI, curl scripts), or a path ending in "/". Only /v1
// paths are rewritten; the console's pages keep their exact addresses (relative links).

/** `url` (path and query) with its path's doubled slashes and trailing slash taken out, for /v1. */
export function apiUrl(url: string): string {
  const queryAt = url.indexOf("?");
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const tidy = path.replace(/\/{2,}/g, "/").replace(/(.)\/$/, "$1");
  if (tidy !== "/v1" && !tidy.startsWith("/v1/")) return url;
  return queryAt === -1 ? tidy : tidy + url.slice(queryAt);
}

/**
 * What a 404 says of a path that is one of the API's without its /v1 (POST /chat/completions from
 * a client whose base URL is http://host:8765, as llama.cpp's server takes it), or undefined.
 * `served` gives the methods a path is served with.
 */
export function missingPrefixMessage(method: string, path: string, served: (path: string) => readonly string[]): string | undefined {
  if (path === "/" || path.startsWith("/v1/")) return undefined;
  const methods = served(`/v1${path}`);
  if (methods.length === 0) return undefined;
  return `no route ${method} ${path}: the API is under /v1 (${methods.join(" or ")} /v1${path}): end the client's base URL with /v1`;
}
