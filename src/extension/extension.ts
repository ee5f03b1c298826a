import * as vscode from "vscode";
import { defaultModelFor } from "../core/api/models";
import type { CompletionOutcome } from "../core/completion/types";
import { ApiKeyStore } from "./api-key";
import { registerChat, type ChatProbe } from "./chat/register-chat";
import { clientCompletionStream } from "./completion/client-stream";
import { registerCompletions } from "./completion/register-completions";
import { ClientFactory } from "./client-factory";
import { registerCommands } from "./commands";
import { ConnectionMonitor } from "./connection-monitor";
import { LocalServer } from "./local-server";
import { Logger } from "./logger";
import { Settings } from "./settings";
import { StatusBar } from "./status-bar";
import type { KeySource, StatusView } from "../core/status/describe-status";

/** What activate() returns: read-only views that the extension's own tests use. */
export interface WispApi {
  statusBar(): StatusView;
  logLines(): readonly string[];
  apiKeySource(): Promise<KeySource>;
  /** The latest completion outcomes, newest last (bounded). */
  completionOutcomes(): readonly CompletionOutcome[];
  /** The chat panel's state. */
  chat: ChatProbe;
}

const keptOutcomes = 100;

export async function activate(context: vscode.ExtensionContext): Promise<WispApi> {
  const log = new Logger();
  const settings = new Settings();
  const keys = new ApiKeyStore(context.secrets);
  const clients = new ClientFactory(settings, keys);
  const connection = new ConnectionMonitor(clients, log);
  const statusBar = new StatusBar(settings, connection);
  const localServer = new LocalServer(settings, keys, log);
  context.subscriptions.push(log, settings, keys, connection, statusBar, localServer);

  const refreshKey = async () => {
    const { key, source } = await keys.resolve();
    log.setSecrets(key === undefined ? [] : [key]);
    statusBar.setKeySource(source);
    log.info(`API key source: ${source}`);
    // Not awaited: activation stays cheap even when the server is slow to answer.
    void connection.check();
  };
  let lastBaseUrl = settings.value.baseUrl;
  context.subscriptions.push(
    registerCommands({ settings, keys, clients, connection, statusBar, log, localServer }),
    keys.onDidChange(() => void refreshKey()),
    settings.onDidChange((s) => {
      if (s.baseUrl === lastBaseUrl) return;
      lastBaseUrl = s.baseUrl;
      log.info(`base URL: ${s.baseUrl}`);
      void connection.check();
    }),
  );

  const outcomes: CompletionOutcome[] = [];
  context.subscriptions.push(
    registerCompletions({
      stream: clientCompletionStream(() => clients.create()),
      settings: () => ({
        ...settings.value.completion,
        model: settings.value.completion.model || defaultModelFor("completion", connection.knownModels) || "",
      }),
      log,
      onOutcome: (outcome) => {
        outcomes.push(outcome);
        if (outcomes.length > keptOutcomes) outcomes.shift();
        reportOutcome(outcome, statusBar, connection);
      },
      onRequest: () => statusBar.beginRequest(),
    }),
  );

  const chat = registerChat({ context, settings, keys, clients, log });
  context.subscriptions.push(chat.disposable);

  log.info(`Wisp ${context.extension.packageJSON.version as string} activated; base URL ${settings.value.baseUrl}`);
  await refreshKey();
  if (settings.value.localServer.autoStart) void autoStartLocalServer(connection, localServer, log);

  return {
    statusBar: () => statusBar.current,
    logLines: () => log.lines(),
    apiKeySource: async () => (await keys.resolve()).source,
    completionOutcomes: () => outcomes,
    chat: chat.probe,
  };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}

/** Shown suggestions give the latency, errors the status; debounces and cancels are routine. */
function reportOutcome(outcome: CompletionOutcome, statusBar: StatusBar, connection: ConnectionMonitor): void {
  statusBar.countOutcome(outcome.kind === "shown" ? `shown (${outcome.source})` : outcome.kind);
  if (outcome.kind === "shown" && (outcome.source === "network" || outcome.source === "reused")) statusBar.reportSuccess(outcome.latencyMs);
  if (outcome.kind !== "error") return;
  // Without a working connection no model list is known: the connection state says why.
  if (outcome.errorKind === "no-model" && connection.current.kind !== "ready") return;
  if (!connection.report(outcome.errorKind, outcome.message)) statusBar.reportError(outcome.message);
}

/** Starts the local server when asked to and nothing answers at the base URL yet. */
async function autoStartLocalServer(connection: ConnectionMonitor, localServer: LocalServer, log: Logger): Promise<void> {
  const state = await connection.check();
  if (state.kind !== "unreachable") return;
  try {
    await localServer.start();
    await connection.check();
  } catch (error) {
    log.error(`local server auto-start: ${(error as Error).message}`);
    void vscode.window.showErrorMessage(`Wisp: ${(error as Error).message}`);
  }
}
