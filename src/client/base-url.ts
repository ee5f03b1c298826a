/** A checked base URL, or why it cannot be used. `display` never holds credentials. */
export type BaseUrl = { url: string; display: string } | { problem: string; display: string };

/** Validates the base URL setting and drops trailing slashes (the SDK adds `/models` etc.). */
export function parseBaseUrl(raw: string): BaseUrl {
  const trimmed = raw.trim().replace(/\/+$/, "");
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
  return { url: trimmed, display: `${url.origin}${url.pathname.replace(/\/+$/, "")}` };
}
