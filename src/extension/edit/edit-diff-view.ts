import * as vscode from "vscode";
import type { EditController } from "./edit-controller";

export const editDiffScheme = "wisp-edit";

/**
 * What is left to decide of an edit, for VS Code's diff editor: the file with the edited lines as
 * the decisions so far make them (`decided`: accepted hunks in, the others as they were) and as
 * the proposal makes them (`proposed`: every undecided hunk accepted too). Open sides are read
 * again whenever an edit changes, so a hunk accepted or rejected since the diff was opened is no
 * longer a difference, and the diff closes when the edit ends.
 */
export class EditDiffView implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changedEmitter = new vscode.EventEmitter<vscode.Uri>();
  private readonly subscription: vscode.Disposable;

  readonly onDidChange = this.changedEmitter.event;

  constructor(private readonly edits: EditController) {
    this.subscription = edits.onDidEdit(() => {
      for (const document of vscode.workspace.textDocuments) if (document.uri.scheme === editDiffScheme) this.changedEmitter.fire(document.uri);
      void this.closeEnded();
    });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const { id, side } = sideOf(uri);
    const session = this.edits.find(id);
    if (session === undefined) return "This edit has ended.";
    return side === "decided" ? session.decidedText() : session.proposedText();
  }

  /** Opens the diff of a session's edit. */
  async open(id: number): Promise<void> {
    const session = this.edits.find(id);
    if (session === undefined) throw new Error("There is no edit to compare: it has ended.");
    const name = session.document.uri.path.split("/").pop() ?? "file";
    const side = (which: string) => vscode.Uri.from({ scheme: editDiffScheme, path: `/${name}`, query: `id=${id}&side=${which}` });
    await vscode.commands.executeCommand("vscode.diff", side("decided"), side("proposed"), `${name}: Wisp's edit (what is left to decide)`, { preview: true });
  }

  /** Closes the diffs of edits that have ended. */
  private async closeEnded(): Promise<void> {
    const ended = vscode.window.tabGroups.all
      .flatMap((group) => group.tabs)
      .filter((tab) => tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.scheme === editDiffScheme && this.edits.find(sideOf(tab.input.modified).id) === undefined);
    if (ended.length > 0) await vscode.window.tabGroups.close(ended);
  }

  dispose(): void {
    this.subscription.dispose();
    this.changedEmitter.dispose();
  }
}

function sideOf(uri: vscode.Uri): { id: number; side: string | undefined } {
  const query = new URLSearchParams(uri.query);
  return { id: Number(query.get("id")), side: query.get("side") ?? undefined };
}
