// `Wisp: Connect a Server…`: the base URL and the key, a connection test that says plainly what
// works and what does not, and, once the server answers, the settings saved.
import * as vscode from "vscode";
import type { ConnectionReport } from "../../core/onboarding/connection-report";
import { parseBaseUrl } from "../../client/base-url";
import type { ApiKeyStore } from "../api-key";
import type { ClientFactory } from "../client-factory";
import type { ConnectionMonitor } from "../connection-monitor";
import type { Logger } from "../logger";
import { updateSetting, type Settings } from "../settings";
import { testConnection } from "./connection-test";

export interface ConnectServerDeps {
  readonly settings: Settings;
  readonly keys: ApiKeyStore;
  readonly clients: ClientFactory;
  readonly connection: ConnectionMonitor;
  readonly log: Logger;
}

const title = "Wisp: Connect a Server";
const roleSettings = ["completion.model", "chat.model", "image.model"] as const;

/**
 * Scripted callers pass the base URL and the key ("" keeps the stored one) and get the report;
 * the user sees the same report as a notification either way. `prefill`: the address to offer.
 */
export async function connectServer(deps: ConnectServerDeps, urlArg?: unknown, keyArg?: unknown, prefill?: unknown): Promise<ConnectionReport | undefined> {
  const scripted = typeof urlArg === "string";
  const baseUrl = scripted ? urlArg.trim() : await askBaseUrl(typeof prefill === "string" ? prefill : deps.settings.value.baseUrl);
  if (baseUrl === undefined) return undefined;
  // That server's own key if Wisp was connected to it before, else the key typed last.
  const stored = (await deps.keys.resolve(baseUrl)).key;
  const typed = typeof keyArg === "string" ? keyArg.trim() : scripted ? "" : await askKey(stored !== undefined);
  if (typed === undefined) return undefined;
  const { chat, completion } = deps.settings.value;
  const report = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Wisp: testing ${baseUrl}…`, cancellable: true }, (_progress, token) => {
    const abort = new AbortController();
    token.onCancellationRequested(() => abort.abort());
    return testConnection({ baseUrl, apiKey: typed || stored, chatModel: chat.model, completionModel: completion.model }, abort.signal);
  });
  for (const line of report.lines) deps.log.info(`connection test: ${line}`);
  if (report.answers) await save(deps, baseUrl, typed, report);
  void tell(deps, report, baseUrl);
  return report;
}

/** The server answers with this key: use it, and forget models of the last server it does not list. */
async function save(deps: ConnectServerDeps, baseUrl: string, key: string, report: ConnectionReport): Promise<void> {
  await deps.clients.switchServer(async () => {
    if (key !== "") await deps.keys.store(key, baseUrl);
    // User settings only: a workspace's cannot name the server (the setting is application-scoped).
    await vscode.workspace.getConfiguration("wisp").update("baseUrl", baseUrl, vscode.ConfigurationTarget.Global);
  });
  for (const setting of roleSettings) {
    // The workspace's value, then the user's under it: either may name a model this server lacks.
    for (let pass = 0; pass < 2; pass++) {
      const model = vscode.workspace.getConfiguration("wisp").get<string>(setting, "").trim();
      if (model === "" || report.models.includes(model)) break;
      await updateSetting(setting, undefined);
      deps.log.info(`connection test: wisp.${setting} named ${model}, which ${baseUrl} does not list: the server's first model of that kind is used now`);
    }
  }
  deps.log.info(`connected to ${baseUrl}${key === "" ? "" : " with the key entered (kept in the secret store)"}`);
  await deps.connection.check();
}

async function tell(deps: ConnectServerDeps, report: ConnectionReport, baseUrl: string): Promise<void> {
  const message = `Wisp: ${report.headline}`;
  if (report.ok) {
    void vscode.window.showInformationMessage(message);
    return;
  }
  const answer = report.answers
    ? await vscode.window.showWarningMessage(message, "Select Model", "Show Details")
    : await vscode.window.showErrorMessage(message, "Try Again", "Show Details");
  if (answer === "Show Details") deps.log.show();
  if (answer === "Select Model") await vscode.commands.executeCommand("wisp.selectModel");
  if (answer === "Try Again") await vscode.commands.executeCommand("wisp.connectServer", undefined, undefined, baseUrl);
}

function askBaseUrl(current: string): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    title: `${title} (1 of 2)`,
    prompt: "The server's OpenAI-compatible API root, ending in /v1: vLLM http://localhost:8000/v1, llama.cpp http://localhost:8080/v1, Ollama http://localhost:11434/v1",
    value: current,
    ignoreFocusOut: true,
    validateInput: (value) => {
      const parsed = parseBaseUrl(value);
      return "problem" in parsed ? parsed.problem.replace(" Check the wisp.baseUrl setting.", "") : undefined;
    },
  }).then((value) => value?.trim() || undefined);
}

function askKey(stored: boolean): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    title: `${title} (2 of 2)`,
    prompt: stored ? "The server's API key; leave empty to keep the key Wisp has for it. Kept in VS Code's secret store, never in settings." : "The server's API key (any text for a server without keys). Kept in VS Code's secret store, never in settings.",
    password: true,
    ignoreFocusOut: true,
  }).then((value) => value?.trim());
}
