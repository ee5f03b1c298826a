import * as vscode from "vscode";
import { addedLines } from "../../core/agent/checkpoint";
import { decodeAsEditor } from "./file-encoding";

/**
 * The lines a task added or changed, on the inserted-line background of the theme's diff colours
 * (as an edit in place shows its new lines), in every editor that shows a changed file, until the
 * task's changes are kept or undone.
 */
export class AgentHighlights implements vscode.Disposable {
  private readonly added = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor("diffEditor.insertedLineBackground"),
    overviewRulerColor: new vscode.ThemeColor("editorOverviewRuler.addedForeground"),
    overviewRulerLane: vscode.OverviewRulerLane.Left,
  });
  /** Workspace-relative paths the task changed, by their URI. */
  private readonly tracked = new Map<string, string>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly original: (path: string) => Promise<Uint8Array | undefined>) {
    this.subscriptions = [
      vscode.window.onDidChangeVisibleTextEditors(() => void this.redraw()),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (this.tracked.has(e.document.uri.toString())) void this.redraw(e.document);
      }),
    ];
  }

  /** Shows the changes of `path` (relative to the task's folder, `uri` in it). */
  track(uri: vscode.Uri, path: string): void {
    this.tracked.set(uri.toString(), path);
    void this.redraw();
  }

  /** Stops showing some files (all when none named): their changes were kept or undone. */
  untrack(paths?: readonly string[]): void {
    for (const [uri, path] of [...this.tracked]) if (!paths || paths.includes(path)) this.tracked.delete(uri);
    void this.redraw();
  }

  private async redraw(only?: vscode.TextDocument): Promise<void> {
    for (const editor of vscode.window.visibleTextEditors) {
      if (only && editor.document !== only) continue;
      const path = this.tracked.get(editor.document.uri.toString());
      if (path === undefined) {
        editor.setDecorations(this.added, []);
        continue;
      }
      const bytes = await this.original(path);
      const before = bytes === undefined ? editor.document.getText() : decodeAsEditor(bytes, editor.document.uri);
      const lines = addedLines(before, editor.document.getText());
      editor.setDecorations(this.added, lines.map((line) => new vscode.Range(line, 0, line, 0)));
    }
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.added.dispose();
  }
}
