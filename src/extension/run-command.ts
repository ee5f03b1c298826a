import * as vscode from "vscode";
import type { Logger } from "./logger";

/** Registers a command whose failures become one logged, readable error message. */
export function registerWispCommand(id: string, run: (...args: unknown[]) => Promise<unknown> | unknown, log: Logger): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (...args: unknown[]) => {
    try {
      return await run(...args);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log.error(`${id}: ${message}`);
      void vscode.window.showErrorMessage(`Wisp: ${message}`);
      return undefined;
    }
  });
}
