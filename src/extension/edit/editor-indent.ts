import type * as vscode from "vscode";

/** How an editor indents (detected from its file or from editor.insertSpaces and editor.tabSize), for re-indenting code put in it. */
export function editorIndent(options: vscode.TextEditorOptions | undefined): { useTabs: boolean; tabSize: number } {
  return { useTabs: options?.insertSpaces === false, tabSize: typeof options?.tabSize === "number" ? options.tabSize : 4 };
}
