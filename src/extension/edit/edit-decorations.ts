import * as vscode from "vscode";
import type { ShownLine } from "../../core/edit/hunks";

/** What the editor shows of one session: its lines from `startLine`, and whether it still streams. */
export interface DecoratedBlock {
  readonly startLine: number;
  readonly lines: readonly ShownLine[];
  readonly streaming: boolean;
}

/**
 * The looks of an edit in the editor, in the theme's diff colours: removed lines struck through on
 * the removed-line background, new lines on the inserted-line background, lines the answer has not
 * reached yet faded, and while it streams a note after the last line it wrote.
 */
export class EditDecorations implements vscode.Disposable {
  private readonly removed = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor("diffEditor.removedLineBackground"),
    overviewRulerColor: new vscode.ThemeColor("editorOverviewRuler.deletedForeground"),
    overviewRulerLane: vscode.OverviewRulerLane.Left,
    textDecoration: "line-through",
  });
  private readonly added = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor("diffEditor.insertedLineBackground"),
    overviewRulerColor: new vscode.ThemeColor("editorOverviewRuler.addedForeground"),
    overviewRulerLane: vscode.OverviewRulerLane.Left,
  });
  private readonly pending = vscode.window.createTextEditorDecorationType({ isWholeLine: true, opacity: "0.55" });
  private readonly progress = vscode.window.createTextEditorDecorationType({
    after: { contentText: "  ⟳ Wisp is editing… (Esc to stop)", color: new vscode.ThemeColor("editorCodeLens.foreground"), fontStyle: "italic" },
  });

  /** What each editor was last given per decoration type: unchanged ones are not sent again. */
  private readonly sent = new WeakMap<vscode.TextEditor, Map<vscode.TextEditorDecorationType, string>>();

  /** Draws every block of `document` in each editor that shows it. */
  draw(document: vscode.TextDocument, blocks: readonly DecoratedBlock[]): void {
    const ranges = { removed: [] as vscode.Range[], added: [] as vscode.Range[], pending: [] as vscode.Range[], progress: [] as vscode.Range[] };
    for (const block of blocks) {
      block.lines.forEach((line, index) => {
        if (line.kind === "same") return;
        ranges[line.kind].push(new vscode.Range(block.startLine + index, 0, block.startLine + index, 0));
      });
      if (block.streaming) {
        const reached = block.lines.findIndex((line) => line.kind === "pending");
        const at = block.startLine + Math.max(0, (reached < 0 ? block.lines.length : reached) - 1);
        ranges.progress.push(new vscode.Range(at, Number.MAX_SAFE_INTEGER, at, Number.MAX_SAFE_INTEGER));
      }
    }
    const types: [vscode.TextEditorDecorationType, vscode.Range[]][] = [
      [this.removed, ranges.removed],
      [this.added, ranges.added],
      [this.pending, ranges.pending],
      [this.progress, ranges.progress],
    ];
    for (const editor of vscode.window.visibleTextEditors) {
      if (editor.document !== document) continue;
      const sent = this.sent.get(editor) ?? new Map<vscode.TextEditorDecorationType, string>();
      this.sent.set(editor, sent);
      for (const [type, list] of types) {
        const key = list.map((r) => r.start.line).join(",");
        if (sent.get(type) === key) continue;
        sent.set(type, key);
        editor.setDecorations(type, list);
      }
    }
  }

  dispose(): void {
    for (const type of [this.removed, this.added, this.pending, this.progress]) type.dispose();
  }
}
