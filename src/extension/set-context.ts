import * as vscode from "vscode";

/**
 * Sets a context key for keybindings and menus. The command is refused ("Canceled") while the
 * window closes or reloads, when there is nothing left to update: that is no error, and left
 * unhandled it would be logged as one from Wisp's code.
 */
export function setContext(key: string, value: unknown): Promise<void> {
  return Promise.resolve(vscode.commands.executeCommand("setContext", key, value)).then(
    () => undefined,
    () => undefined,
  );
}
