// The first minute: the walkthrough opens on the first activation only, and while the server
// serves nothing but the embedded models one notification per window says so, until the user
// asks never to see it again.
import * as vscode from "vscode";
import type { Logger } from "../logger";

export const walkthroughId = "wisp.wisp#getStarted";
const openedKey = "wisp.getStarted.walkthroughOpened";
const noticeOffKey = "wisp.getStarted.embeddedNoticeOff";

export const noticeButtons = { download: "Download a Model", connect: "Connect a Server", never: "Don't Show Again" } as const;

/** Opens the walkthrough unless it was opened before, or the user asked VS Code to open nothing at start. */
export async function openWalkthroughOnce(memento: vscode.Memento, log: Logger): Promise<boolean> {
  if (memento.get<boolean>(openedKey)) {
    log.info("get started: the walkthrough was opened before (Wisp: Get Started opens it again)");
    return false;
  }
  // null: the values for the window (startupEditor is resource-scoped, and asked without a resource VS Code logs a warning).
  const workbench = vscode.workspace.getConfiguration("workbench", null);
  // The user's own "nothing at start": VS Code's welcome page and its walkthroughs on install.
  if (workbench.get("startupEditor") === "none" || workbench.get("welcomePage.walkthroughs.openOnInstall") === false) {
    log.info("get started: not opening the walkthrough (workbench.startupEditor is none, or walkthroughs do not open on install); Wisp: Get Started opens it");
    return false;
  }
  await memento.update(openedKey, true);
  await vscode.commands.executeCommand("workbench.action.openWalkthrough", walkthroughId, false);
  log.info("get started: opened the walkthrough (first activation)");
  return true;
}

/** Once per window, the first time the server lists only the embedded models. */
export class EmbeddedNotice {
  private considered = false;

  constructor(private readonly memento: vscode.Memento, private readonly log: Logger) {}

  /** Whether the notice was shown in this window. */
  shown = false;

  consider(embeddedOnly: boolean): void {
    if (!embeddedOnly || this.considered) return;
    this.considered = true;
    if (this.memento.get<boolean>(noticeOffKey)) {
      this.log.info("get started: only the embedded models are served; notice not shown (Don't Show Again was chosen)");
      return;
    }
    this.shown = true;
    this.log.info("get started: only the embedded models are served; notice shown");
    void vscode.window
      .showInformationMessage(
        "Wisp runs on its tiny embedded models: good for a first look, not for work. Download a real model for this machine, or connect a server.",
        noticeButtons.download,
        noticeButtons.connect,
        noticeButtons.never,
      )
      .then(async (answer) => {
        if (answer === noticeButtons.download) await vscode.commands.executeCommand("wisp.downloadRecommendedModel");
        if (answer === noticeButtons.connect) await vscode.commands.executeCommand("wisp.connectServer");
        if (answer === noticeButtons.never) {
          await this.memento.update(noticeOffKey, true);
          this.log.info("get started: the embedded-models notice will not be shown again");
        }
      });
  }
}
