import * as vscode from "vscode";
import type { EditController } from "./edit-controller";

/**
 * The controls of an edit above its lines: while it streams, progress and Stop; in review, Accept
 * All, Reject All and Open Diff above the block, and Accept / Reject above each hunk.
 */
export class EditCodeLens implements vscode.CodeLensProvider {
  readonly onDidChangeCodeLenses: vscode.Event<void>;

  constructor(private readonly edits: EditController) {
    this.onDidChangeCodeLenses = edits.onDidChange;
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const lenses: vscode.CodeLens[] = [];
    for (const session of this.edits.sessionsOf(document)) {
      const top = new vscode.Range(session.region.startLine, 0, session.region.startLine, 0);
      const lens = (range: vscode.Range, title: string, command: string, ...args: unknown[]) =>
        lenses.push(new vscode.CodeLens(range, { title, command, arguments: [session.id, ...args] }));
      if (session.state === "streaming") {
        lens(top, "$(sync~spin) Wisp is editing…", "wisp.edit.reject");
        lens(top, "Stop (Esc)", "wisp.edit.reject");
        continue;
      }
      if (session.state !== "reviewing") continue;
      lens(top, "$(check) Accept All (Ctrl+Enter)", "wisp.edit.accept");
      lens(top, "$(close) Reject All (Esc)", "wisp.edit.reject");
      lens(top, "$(diff) Open Diff", "wisp.edit.showDiff");
      const undecided = [...session.hunkLines()];
      if (undecided.length < 2) continue;
      for (const [hunk, line] of undecided) {
        const at = new vscode.Range(line, 0, line, 0);
        lens(at, "Accept", "wisp.edit.acceptHunk", hunk);
        lens(at, "Reject", "wisp.edit.rejectHunk", hunk);
      }
    }
    return lenses;
  }
}
