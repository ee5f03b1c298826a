import * as vscode from "vscode";
import type { WispSettings } from "./settings";

/** The small menu behind the status bar item: the Wisp commands, with the current state. */
export async function showStatusMenu(settings: WispSettings, headline: string): Promise<void> {
  const items: (vscode.QuickPickItem & { command: string })[] = [
    { label: "$(rocket) Get Started", command: "wisp.getStarted" },
    { label: "$(cloud-download) Download a Model for This Machine…", command: "wisp.downloadRecommendedModel" },
    { label: "$(plug) Connect a Server…", command: "wisp.connectServer" },
    { label: "$(key) Set API Key", command: "wisp.setApiKey" },
    { label: "$(trash) Clear API Key", command: "wisp.clearApiKey" },
    { label: "$(list-selection) Select Model", command: "wisp.selectModel" },
    {
      label: settings.completion.enabled ? "$(circle-slash) Turn Completions Off" : "$(check) Turn Completions On",
      command: "wisp.toggleCompletions",
    },
    {
      label: settings.nextEdit.enabled ? "$(circle-slash) Turn Next-Edit Suggestions Off" : "$(check) Turn Next-Edit Suggestions On",
      command: "wisp.toggleNextEdit",
    },
    { label: "$(server-process) Start Local Server", command: "wisp.startLocalServer" },
    { label: "$(debug-stop) Stop Local Server", command: "wisp.stopLocalServer" },
    { label: "$(globe) Open Web Console", command: "wisp.openWebConsole" },
    { label: "$(refresh) Check Connection", command: "wisp.checkConnection" },
    { label: "$(output) Show Logs", command: "wisp.showLogs" },
    { label: "$(gear) Open Settings", command: "workbench.action.openSettings" },
  ];
  const picked = await vscode.window.showQuickPick(items, { title: headline, placeHolder: "Wisp" });
  if (picked === undefined) return;
  if (picked.command === "workbench.action.openSettings") {
    await vscode.commands.executeCommand(picked.command, "@ext:wisp.wisp");
  } else {
    await vscode.commands.executeCommand(picked.command);
  }
}
