import * as vscode from "vscode";

/**
 * The looks of a next edit, in the theme's inline-diff colours: the text it removes struck through,
 * the text it writes right after, and a hint at the end of the cursor's line.
 */
export class NextEditDecorations implements vscode.Disposable {
  private readonly removed = vscode.window.createTextEditorDecorationType({
    backgroundColor: new vscode.ThemeColor("diffEditor.removedTextBackground"),
    textDecoration: "line-through",
    overviewRulerColor: new vscode.ThemeColor("editorOverviewRuler.deletedForeground"),
    overviewRulerLane: vscode.OverviewRulerLane.Left,
  });
  private readonly added = vscode.window.createTextEditorDecorationType({
    after: { backgroundColor: new vscode.ThemeColor("diffEditor.insertedTextBackground") },
    overviewRulerColor: new vscode.ThemeColor("editorOverviewRuler.addedForeground"),
    overviewRulerLane: vscode.OverviewRulerLane.Left,
  });
  private readonly hint = vscode.window.createTextEditorDecorationType({
    after: { color: new vscode.ThemeColor("editorCodeLens.foreground"), fontStyle: "italic", margin: "0 0 0 2em" },
  });

  /** Shows `target` replaced by `newText` (none: ghost text shows it), and `hint` after the line of `cursorLine`. */
  draw(editor: vscode.TextEditor, target: vscode.Range | undefined, newText: string, cursorLine: number, hint: string): void {
    editor.setDecorations(this.removed, target && !target.isEmpty ? [target] : []);
    // A decoration's text is one line: a new line in it shows as a visible return mark.
    const shown = newText.replace(/\r?\n/g, "⏎");
    editor.setDecorations(this.added, target && shown !== "" ? [{ range: new vscode.Range(target.end, target.end), renderOptions: { after: { contentText: shown } } }] : []);
    const end = editor.document.lineAt(cursorLine).range.end;
    editor.setDecorations(this.hint, [{ range: new vscode.Range(end, end), renderOptions: { after: { contentText: hint } } }]);
  }

  clear(editor: vscode.TextEditor): void {
    for (const type of [this.removed, this.added, this.hint]) editor.setDecorations(type, []);
  }

  dispose(): void {
    for (const type of [this.removed, this.added, this.hint]) type.dispose();
  }
}
