import * as vscode from "vscode";
import type { ClientFactory } from "../client-factory";
import type { Logger } from "../logger";
import { registerWispCommand } from "../run-command";
import type { Settings } from "../settings";
import type { ChatModelChoice } from "./chat-model-setup";
import { CommitMessages } from "./commit-message";

export interface ScmDeps {
  readonly settings: Settings;
  readonly clients: ClientFactory;
  readonly log: Logger;
  readonly models: ChatModelChoice;
  readonly isSensitive: (uri: vscode.Uri) => boolean;
}

/** Generate Commit Message on each repository of the Source Control view (and its Stop). */
export function registerScm(deps: ScmDeps): vscode.Disposable {
  const messages = new CommitMessages(deps);
  return vscode.Disposable.from(
    messages,
    registerWispCommand("wisp.generateCommitMessage", (arg) => messages.toggle(arg), deps.log),
    // The button shown while a message streams: it stops that repository's (every one's from the palette).
    registerWispCommand("wisp.stopCommitMessage", (arg) => messages.stop(arg), deps.log),
  );
}
