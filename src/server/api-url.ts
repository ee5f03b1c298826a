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
