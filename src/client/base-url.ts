/**
 * A checked base URL, or why it cannot be used. `url` is the API root without query; `query`, the
 * setting's query parameters (Azure's `?api-version=...`), go with every request. `display` never
 * holds credentials (no user name, password or query).
 */
export type BaseUrl = { url: string; query: Record<string, string>; display: string } | { problem: string; display: string };

/** Validates the base URL setting and drops trailing slashes (the SDK adds `/models` etc.). */
export function parseBaseUrl(raw: string): BaseUrl {
  const trimmed = raw.trim();
  let url: URL | undefined;
  try {
    url = new URL(trimmed);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:")) {
    return { problem: `The base URL "${raw}" is not an http(s) URL. Check the wisp.baseUrl setting.`, display: raw };
  }
  if (url.username !== "" || url.password !== "") {
    // Said without echoing the URL: it holds a secret.
    return {
      problem: 'The base URL contains a user name or password. Remove it from wisp.baseUrl and use "Wisp: Set API Key".',
      display: url.host,
    };
  }
  const root = `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
  if (url.hash !== "") {
    // No server ever receives a fragment, and the SDK would put the paths after it.
    return { problem: `The base URL ${root} ends in a #fragment (${url.hash}), which no server receives. Remove it from wisp.baseUrl.`, display: root };
  }
  return { url: root, query: Object.fromEntries(url.searchParams), display: root };
}

/**
 * The server an API key belongs to: the base URL's scheme, host, port and path, without trailing
 * slashes or query (`http://Host:80/v1/` and `http://host/v1?api-version=1` are one server). A
 * setting Wisp cannot use stands for itself, without what could be a password (the name of a secret
 * is not kept secret).
 */
export function keyServerOf(raw: string): string {
  const parsed = parseBaseUrl(raw);
  return "url" in parsed ? parsed.url : parsed.display.slice(parsed.display.lastIndexOf("@") + 1).trim();
}
