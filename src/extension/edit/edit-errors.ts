import * as vscode from "vscode";
import { toChatError } from "../../core/chat/chat-session";
import { errorActions } from "../../core/chat/error-actions";
import type { ErrorAction } from "../../core/chat/protocol";
import { isLocalBaseUrl } from "../../core/net/local-address";
import type { Logger } from "../logger";

/** The commands behind each way out of a failed edit (Retry is the edit's own). */
const commands: Record<Exclude<ErrorAction, "retry">, [string, ...unknown[]]> = {
  setApiKey: ["wisp.setApiKey"],
  selectModel: ["wisp.selectModel", "chat"],
  startLocalServer: ["wisp.startLocalServer"],
  openSettings: ["workbench.action.openSettings", "wisp."],
  showLogs: ["wisp.showLogs"],
  downloadModel: ["wisp.downloadRecommendedModel"],
  connectServer: ["wisp.connectServer"],
};

/**
 * Shows a failed edit as one message with the ways out its kind offers (Set API Key, Select
 * Model, Retry, ...); the document is already back as it was. Returns the message shown.
 */
export function reportEditError(error: unknown, options: { baseUrl: string; log: Logger; retry: () => unknown }): string {
  const { kind, message } = toChatError(error);
  options.log.error(`edit: failed (${kind}): ${message}`);
  const actions = errorActions(kind, { local: isLocalBaseUrl(options.baseUrl) });
  void vscode.window.showErrorMessage(`Wisp: ${message}`, ...actions.map((a) => a.label)).then((label) => {
    const action = actions.find((a) => a.label === label)?.action;
    if (action === undefined) return;
    if (action === "retry") return options.retry();
    const [command, ...args] = commands[action];
    return vscode.commands.executeCommand(command, ...args);
  });
  return message;
}
