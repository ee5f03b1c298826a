import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import * as vscode from "vscode";
import { webConsoleOrigin } from "../core/net/web-console";
import type { Logger } from "./logger";
import type { Settings } from "./settings";

/** The local server's data folder, as wisp-server picks it: WISP_DATA_DIR, else ~/.wisp. */
export function localServerDataDir(): string {
  return process.env.WISP_DATA_DIR || join(homedir(), ".wisp");
}

async function readAdminToken(file: string): Promise<string | undefined> {
  try {
    return (await readFile(file, "utf8")).trim() || undefined;
  } catch {
    return undefined;
  }
}

export interface OpenedConsole {
  origin: string;
  /** Whether the browser opens it logged in (else on the login page). */
  loggedIn: boolean;
}

/**
 * Opens the local server's web console in the browser. The admin token (in the server's data
 * folder on this machine) is traded for a one-time login link, so the token itself never goes
 * into the browser, a setting or a log; without it, the console's login page opens.
 */
export async function openWebConsole(settings: Settings, log: Logger, dataDirs: readonly string[] = [localServerDataDir()]): Promise<OpenedConsole> {
  const origin = webConsoleOrigin(settings.value.baseUrl);
  // The bundled server keeps its data in the extension's storage, a standalone one in ~/.wisp:
  // the first token the server at the base URL accepts opens it.
  const tokenFiles = dataDirs.map((dir) => join(dir, "admin-token"));
  let path = "/login";
  let tokenFound = false;
  for (const tokenFile of [...tokenFiles, undefined]) {
    const token = tokenFile === undefined ? undefined : await readAdminToken(tokenFile);
    if (tokenFile !== undefined && token === undefined) continue;
    tokenFound ||= token !== undefined;
    const response = await loginLink(origin, token);
    if (response.ok) {
      path = ((await response.json()) as { path: string }).path;
      break;
    }
    if (response.status !== 401) throw new Error(`the server at ${origin} has no web console (HTTP ${response.status}).`);
  }
  if (!(await vscode.env.openExternal(vscode.Uri.parse(`${origin}${path}`)))) throw new Error("the browser did not open the web console.");
  const loggedIn = path !== "/login";
  log.info(`opened the web console at ${origin}${loggedIn ? "" : " (login page)"}`);
  if (!loggedIn) {
    const where = tokenFiles.join(" or ");
    const why = tokenFound ? `no admin token in ${where} is this server's` : `there is no admin token in ${where}`;
    void vscode.window.showInformationMessage(`Wisp: ${why}; log in with the token in the login link wisp-server printed when it started.`);
  }
  return { origin, loggedIn };
}

async function loginLink(origin: string, token: string | undefined): Promise<Response> {
  try {
    return await fetch(`${origin}/console/api/login-link`, {
      method: "POST",
      headers: token ? { authorization: `Bearer ${token}` } : {},
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    throw new Error(`the local server at ${origin} does not answer: start it with Wisp: Start Local Server.`);
  }
}
