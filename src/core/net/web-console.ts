import { localAddress } from "./local-address";

/**
 * Where the local server's web console is, from `wisp.baseUrl` (the console is at the server's
 * root); an error saying why when the base URL is not this machine.
 */
export function webConsoleOrigin(baseUrl: string): string {
  try {
    localAddress(baseUrl);
  } catch (error) {
    throw new Error(`the web console belongs to Wisp's local server, and ${(error as Error).message.replace(/ the local server only serves 127\.0\.0\.1\.$/, " it is not the local server.")}`);
  }
  return new URL(baseUrl).origin;
}
