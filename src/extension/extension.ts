import * as vscode from "vscode";
import { ApiKeyStore } from "./api-key";
import { ClientFactory } from "./client-factory";
import { registerCommands } from "./commands";
import { ConnectionMonitor } from "./connection-monitor";
import { Logger } from "./logger";
import { Settings } from "./settings";
import { StatusBar } from "./status-bar";
import type { KeySource, StatusView } from "../core/status/describe-status";

/** What activate() returns: read-only views that the extension's own tests use. */
export interface WispApi {
  statusBar(): StatusView;
  logLines(): readonly string[];
  apiKeySource(): Promise<KeySource>;
}

export async function activate(context: vscode.ExtensionContext): Promise<WispApi> {
  const log = new Logger();
  const settings = new Settings();
  const keys = new ApiKeyStore(context.secrets);
  const clients = new ClientFactory(settings, keys);
  const connection = new ConnectionMonitor(clients, log);
  const statusBar = new StatusBar(settings, connection);
  context.subscriptions.push(log, settings, keys, connection, statusBar);

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
    registerCommands({ settings, keys, clients, connection, statusBar, log }),
    keys.onDidChange(() => void refreshKey()),
    settings.onDidChange((s) => {
      if (s.baseUrl === lastBaseUrl) return;
      lastBaseUrl = s.baseUrl;
      log.info(`base URL: ${s.baseUrl}`);
      void connection.check();
    }),
  );

  log.info(`Wisp ${context.extension.packageJSON.version as string} activated; base URL ${settings.value.baseUrl}`);
  await refreshKey();

  return {
    statusBar: () => statusBar.current,
    logLines: () => log.lines(),
    apiKeySource: async () => (await keys.resolve()).source,
  };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
