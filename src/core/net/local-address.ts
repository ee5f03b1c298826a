const loopbackHosts = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

/** Where the local server should listen, read from `wisp.baseUrl`; an error for remote URLs. */
export function localAddress(baseUrl: string): { host: string; port: number } {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new Error(`wisp.baseUrl "${baseUrl}" is not a URL.`);
  }
  if (!loopbackHosts.has(url.hostname)) {
    throw new Error(`wisp.baseUrl points at ${url.host}, not this machine: the local server only serves 127.0.0.1.`);
  }
  if (url.protocol !== "http:") throw new Error(`wisp.baseUrl is ${url.protocol}//: the local server speaks plain http on this machine.`);
  const port = url.port === "" ? 80 : Number(url.port);
  return { host: url.hostname.replace(/^\[|\]$/g, ""), port };
}

/** Whether the local server could serve `baseUrl` (http on a loopback address). */
export function isLocalBaseUrl(baseUrl: string): boolean {
  try {
    localAddress(baseUrl);
    return true;
  } catch {
    return false;
  }
}
