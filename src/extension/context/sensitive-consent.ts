import * as vscode from "vscode";
import { fileUriOf } from "../notebook-cell";
import type { SensitiveFileRules } from "./sensitive-file-rules";

const send: vscode.MessageItem = { title: "Send" };
const dontSend: vscode.MessageItem = { title: "Don't send", isCloseAffordance: true };

/**
 * Asks before the content of a sensitive file goes into a chat request on the user's own
 * initiative (@file, @open, @selection, Ask About Selection): what is found for them never
 * includes such files, what they name themselves goes only after a Send.
 */
export class SensitiveConsent {
  constructor(
    readonly rules: SensitiveFileRules,
    /** Where the request would go, as the question names it (the server's host). */
    private readonly destination: () => string,
  ) {}

  /** Whether the file may go: it is not sensitive, or the user chose Send. */
  async allows(uri: vscode.Uri): Promise<boolean> {
    if (!this.rules.isSensitive(uri)) return true;
    const answer = await vscode.window.showWarningMessage(
      `${displayPath(uri)} matches wisp.sensitiveFiles/.wispignore and may contain secrets. Send it to ${this.destination()}?`,
      { modal: true },
      send,
      dontSend,
    );
    return answer === send;
  }

  /** Throws the notice for a file the user chose not to send (the message goes without it). */
  async require(uri: vscode.Uri): Promise<void> {
    if (!(await this.allows(uri))) throw new Error(`${displayPath(uri)} was not attached: it matches wisp.sensitiveFiles/.wispignore and you chose not to send it.`);
  }
}

function displayPath(cellOrFile: vscode.Uri): string {
  const uri = fileUriOf(cellOrFile);
  return vscode.workspace.asRelativePath(uri, false) || uri.path.slice(uri.path.lastIndexOf("/") + 1);
}

/** The server's host (`127.0.0.1:8765`) from the base URL, or the setting as written. */
export function serverName(baseUrl: string): string {
  try {
    return new URL(baseUrl).host || baseUrl;
  } catch {
    return baseUrl;
  }
}
