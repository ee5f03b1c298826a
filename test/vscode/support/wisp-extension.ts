import * as vscode from "vscode";
import type { WispApi } from "../../../src/extension/extension";
import { startLocalTextServer, type LocalTextServer } from "../../harness/local-text-server";
import { waitFor } from "../../harness/wait-for";

export const wispExtensionId = "wisp.wisp";

/** Activates the extension under test and returns the read-only API its activate() returns. */
export async function activateWisp(): Promise<WispApi> {
  const extension = vscode.extensions.getExtension<WispApi>(wispExtensionId);
  if (extension === undefined) throw new Error(`extension ${wispExtensionId} is not installed`);
  return extension.activate();
}

/** Puts the `wisp.*` settings and the stored key back to their defaults between tests. */
export async function resetWisp(): Promise<void> {
  const config = vscode.workspace.getConfiguration("wisp");
  for (const key of ["baseUrl", "completion.model", "chat.model", "image.model"]) {
    await config.update(key, undefined, vscode.ConfigurationTarget.Global);
  }
  await vscode.commands.executeCommand("wisp.clearApiKey");
}

/**
 * The log lines written after this call. The log keeps its last 2,000 lines, so once it is full
 * their count stops moving and a slice from it is always empty: lines are taken after the last
 * one there was (each starts with its time to the millisecond).
 */
export function logFromNow(api: WispApi): () => readonly string[] {
  const last = api.logLines().at(-1);
  return () => {
    const lines = api.logLines();
    const at = last === undefined ? -1 : lines.lastIndexOf(last);
    return lines.slice(at + 1);
  };
}

export async function setBaseUrl(baseUrl: string): Promise<void> {
  await vscode.workspace.getConfiguration("wisp").update("baseUrl", baseUrl, vscode.ConfigurationTarget.Global);
}

/** Points Wisp at `baseUrl` with `key` and waits until the status bar says it is ready. */
export async function connectWisp(api: WispApi, baseUrl: string, key: string): Promise<void> {
  await setBaseUrl(baseUrl);
  await vscode.commands.executeCommand("wisp.setApiKey", key);
  await waitFor("status ready", () => api.statusBar(), (view) => view.state === "ready", 30_000);
}

/**
 * Starts the real local server (wisp-server on the generated tiny text and image models) and
 * points Wisp at it with its key stored; stop it with `server.stop()`.
 */
export async function connectToLocalServer(): Promise<LocalTextServer> {
  const root = vscode.extensions.getExtension(wispExtensionId)!.extensionPath;
  const server = await startLocalTextServer(root);
  await setBaseUrl(server.baseUrl);
  await vscode.commands.executeCommand("wisp.setApiKey", server.key);
  return server;
}
