import * as vscode from "vscode";
import { noBundledServerMessage } from "../core/local-server/no-bundled-server";
import type { ApiKeyStore } from "./api-key";
import type { ClientFactory } from "./client-factory";
import type { ConnectionMonitor } from "./connection-monitor";
import { downloadModel, localDownloadDeps } from "./local-engine/download-model";
import type { LocalServer } from "./local-server";
import type { Logger } from "./logger";
import { selectModel } from "./model-picker";
import { registerWispCommand } from "./run-command";
import type { Settings } from "./settings";
import type { StatusBar } from "./status-bar";
import { showStatusMenu } from "./status-menu";
import { localServerDataDir, openWebConsole } from "./web-console";

export interface CommandDeps {
  readonly settings: Settings;
  readonly keys: ApiKeyStore;
  readonly clients: ClientFactory;
  readonly connection: ConnectionMonitor;
  readonly statusBar: StatusBar;
  readonly log: Logger;
  readonly localServer: LocalServer;
  /** Remembers which model roles followed a download (Wisp's choice, not the user's). */
  readonly memento: vscode.Memento;
}

/** Registers the Wisp commands; each failure becomes one readable error message. */
export function registerCommands(deps: CommandDeps): vscode.Disposable {
  const { settings, keys, clients, connection, statusBar, log, localServer, memento } = deps;
  const register = (id: string, run: (...args: unknown[]) => Promise<unknown> | unknown) => registerWispCommand(id, run, log);

  return vscode.Disposable.from(
    register("wisp.setApiKey", async (arg) => {
      // For the server of this moment: a base URL changed while the box is open does not take it.
      const { baseUrl } = settings.value;
      const key = typeof arg === "string" ? arg : await askForKey();
      if (key === undefined || key.trim() === "") return false;
      await keys.store(key, baseUrl);
      log.info("API key stored in the secret store");
      void vscode.window.showInformationMessage("Wisp: API key saved in the secret store.");
      return true;
    }),
    register("wisp.clearApiKey", async () => {
      await keys.clear();
      const { source } = await keys.resolve();
      log.info("API key removed from the secret store");
      const rest = source === "env" ? " WISP_API_KEY from the environment is used now." : "";
      void vscode.window.showInformationMessage(`Wisp: API key removed.${rest}`);
    }),
    register("wisp.selectModel", async (role, model) => {
      const chosen = await selectModel(clients, settings, role, model);
      if (chosen !== undefined) log.info(`model selected: ${chosen}`);
      return chosen;
    }),
    register("wisp.toggleCompletions", async () => {
      const enabled = !settings.value.completion.enabled;
      await settings.setCompletionsEnabled(enabled);
      log.info(`completions ${enabled ? "on" : "off"}`);
      return enabled;
    }),
    register("wisp.triggerCompletion", () => vscode.commands.executeCommand("editor.action.inlineSuggest.trigger")),
    register("wisp.showLogs", () => log.show()),
    register("wisp.statusMenu", () => showStatusMenu(settings.value, statusBar.current.tooltip.split("\n")[0] ?? "Wisp")),
    register("wisp.checkConnection", () => connection.check()),
    register("wisp.startLocalServer", async () => {
      if (!localServer.available) return explainNoBundledServer(log);
      const result = await localServer.start();
      const url = settings.value.baseUrl;
      void vscode.window.showInformationMessage(result === "started" ? `Wisp: local server running at ${url}` : `Wisp: a Wisp server already answers at ${url}; using it.`);
      await connection.check();
      return result;
    }),
    register("wisp.stopLocalServer", async () => {
      if (!localServer.active) void vscode.window.showInformationMessage("Wisp: this window runs no local server.");
      await localServer.stop();
      await connection.check();
    }),
    register("wisp.downloadModel", (spec, use) =>
      downloadModel(localDownloadDeps({ settings, log, modelsDir: () => localServer.modelsDir, connection, memento }), spec, use),
    ),
    register("wisp.openWebConsole", () => openWebConsole(settings, log, [localServer.dataDir, localServerDataDir()])),
  );
}

/** The universal package: say why nothing starts and where to point Wisp instead. */
function explainNoBundledServer(log: Logger): "no-bundled-server" {
  log.warn(`Start Local Server: ${noBundledServerMessage}`);
  void vscode.window.showWarningMessage(`Wisp: ${noBundledServerMessage}`, "Open Settings").then((choice) => {
    if (choice === "Open Settings") void vscode.commands.executeCommand("workbench.action.openSettings", "wisp.baseUrl wisp.localServer.command");
  });
  return "no-bundled-server";
}

function askForKey(): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    title: "Wisp: Set API Key",
    prompt: "The key is kept in VS Code's secret store, never in settings.",
    placeHolder: "API key for the configured server",
    password: true,
    ignoreFocusOut: true,
    validateInput: (value) => (value.trim() === "" ? "Enter a key, or press Escape to cancel." : undefined),
  });
}
