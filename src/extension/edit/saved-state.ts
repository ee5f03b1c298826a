import * as vscode from "vscode";

/**
 * A document's text at the start of an edit, when it then had no unsaved changes. The edit's own
 * changes make one undo step from that saved version (its first change starts a new step), so an
 * edit that ends without a change can undo that step instead of writing the original back: the
 * document then counts as saved again, without writing the file (no save participants, the
 * file's time untouched) and without reloading it from disk.
 */
export class SavedState {
  private readonly text: string | undefined;

  constructor(private readonly document: vscode.TextDocument) {
    this.text = document.isDirty ? undefined : document.getText();
  }

  /**
   * Undoes the edit's step when that gives exactly the saved text (`expected`: the text once the
   * original is back) and marks the document saved; false, with the document as it was, when it
   * cannot: unsaved changes before the edit, the user's own changes since, or the document not in
   * the active tab's editor (undo acts on the focused editor, which must be this document's).
   */
  async undoToSaved(expected: string): Promise<boolean> {
    const { document, text } = this;
    if (text === undefined || expected !== text || document.isClosed || !document.isDirty) return false;
    const editor = vscode.window.activeTextEditor;
    // Only a plain editor of this file, already active: focusing it then changes no tab.
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    if (editor?.document !== document || !(tab instanceof vscode.TabInputText) || tab.uri.toString() !== document.uri.toString()) return false;
    await vscode.window.showTextDocument(document, { viewColumn: editor.viewColumn, preserveFocus: false });
    if (vscode.window.activeTextEditor?.document !== document) return false;
    const version = document.version;
    await vscode.commands.executeCommand("undo");
    if (!document.isDirty && document.getText() === text) return true;
    // The step undone was not only the edit's (the user changed the file in it): redo puts it back.
    if (document.version !== version) await vscode.commands.executeCommand("redo");
    return false;
  }
}
