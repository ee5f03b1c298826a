import * as vscode from "vscode";
import { isWispError } from "../../client/wisp-error";
import { describeImageError, type ImageAttempt, type ImageErrorAction, type ImageErrorReport } from "../../core/image/describe-image-error";
import { isLocalBaseUrl } from "../../core/net/local-address";
import type { Logger } from "../logger";
import type { ImageSettings } from "../settings";

/** The readable report of any failure of an image command. */
export function reportFor(error: unknown, image: ImageSettings, baseUrl: string, model: string | undefined, size = { width: image.width, height: image.height }): ImageErrorReport {
  if (!isWispError(error)) {
    return { message: error instanceof Error ? error.message : String(error), actions: ["Open Settings"], setting: "wisp.image" };
  }
  const attempt: ImageAttempt = { model: model ?? image.model, size, baseUrl, local: isLocalBaseUrl(baseUrl), timeoutSeconds: image.timeoutSeconds };
  return describeImageError(
    {
      kind: error.kind,
      message: error.message,
      ...(error.status === undefined ? {} : { status: error.status }),
      ...(error.param === undefined ? {} : { param: error.param }),
      ...(error.code === undefined ? {} : { code: error.code }),
    },
    attempt,
  );
}

/**
 * Shows the report as an error message with its buttons; a button runs its command. Not awaited
 * by the command: the message stays until the user closes it.
 */
export function showImageError(report: ImageErrorReport, log: Logger, retry: () => void): void {
  log.error(`image: ${report.message}`);
  void vscode.window.showErrorMessage(`Wisp: ${report.message}`, ...report.actions).then((action) => {
    if (action !== undefined) void runAction(action, report, retry);
  });
}

async function runAction(action: ImageErrorAction, report: ImageErrorReport, retry: () => void): Promise<void> {
  switch (action) {
    case "Set API Key":
      return void (await vscode.commands.executeCommand("wisp.setApiKey"));
    case "Select Model":
      return void (await vscode.commands.executeCommand("wisp.selectModel", "image"));
    case "Start Local Server":
      return void (await vscode.commands.executeCommand("wisp.startLocalServer"));
    case "Open Settings":
      return void (await vscode.commands.executeCommand("workbench.action.openSettings", report.setting ?? "wisp.image"));
    case "Show Logs":
      return void (await vscode.commands.executeCommand("wisp.showLogs"));
    case "Try Again":
      return retry();
  }
}
