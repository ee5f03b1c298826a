import * as vscode from "vscode";

/**
 * Sets a context key for keybindings and menus. The editor refuses the command ("Canceled") while
 * the window closes or reloads: the rejection is taken here (there is nothing left to update), and
 * what is disposed sets no key at all, since the editor logs that refusal as an error of its own.
 */
export function setContext(key: string, value: unknown): Promise<void> {
  return Promise.resolve(vscode.commands.executeCommand("setContext", key, value)).then(
    () => undefined,
    () => undefined,
  );
}
