import * as vscode from "vscode";
import type { EditController } from "./edit-controller";

export const editDiffScheme = "wisp-edit";

/**
 * The file before and after an edit, for VS Code's diff editor: the document as it is, with the
 * edited lines as they were (`original`) or as the proposal makes them (`proposed`, every undecided
 * hunk accepted). Open sides are read again whenever an edit changes, so the proposed side shows the
 * hunks accepted or rejected since the diff was opened.
 */
export class EditDiffView implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changedEmitter = new vscode.EventEmitter<vscode.Uri>();
  private readonly subscription: vscode.Disposable;

  readonly onDidChange = this.changedEmitter.event;

  constructor(private readonly edits: EditController) {
    this.subscription = edits.onDidEdit(() => {
      for (const document of vscode.workspace.textDocuments) if (document.uri.scheme === editDiffScheme) this.changedEmitter.fire(document.uri);
    });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const [id, side] = uri.query.split("&").map((part) => part.split("=")[1]);
    const session = this.edits.find(Number(id));
    if (session === undefined) return "This edit has ended.";
    const { document } = session;
    const range = session.region.range();
    const text = side === "original" ? session.originalText : session.proposedText();
    const all = document.getText();
    return all.slice(0, document.offsetAt(range.start)) + text + all.slice(document.offsetAt(range.end));
  }

  /** Opens the diff of a session's edit. */
  async open(id: number): Promise<void> {
    const session = this.edits.find(id);
    if (session === undefined) throw new Error("There is no edit to compare: it has ended.");
    const name = session.document.uri.path.split("/").pop() ?? "file";
    const side = (which: string) => vscode.Uri.from({ scheme: editDiffScheme, path: `/${name}`, query: `id=${id}&side=${which}` });
    await vscode.commands.executeCommand("vscode.diff", side("original"), side("proposed"), `${name}: Wisp's edit (original ↔ proposed)`, { preview: true });
  }

  dispose(): void {
    this.subscription.dispose();
    this.changedEmitter.dispose();
  }
}
