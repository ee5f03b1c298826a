import * as vscode from "vscode";
import type { CodeAction } from "../../core/chat/protocol";

/**
 * The code-block actions of the chat: copy, insert at the cursor or replace the selection of the
 * editor the user last worked in (the panel has the focus when they click), open in a new file.
 */
export class CodeActions implements vscode.Disposable {
  private last: vscode.TextEditor | undefined;
  private readonly subscription: vscode.Disposable;

  constructor() {
    this.last = usable(vscode.window.activeTextEditor);
    this.subscription = vscode.window.onDidChangeActiveTextEditor((editor) => {
      if (usable(editor)) this.last = editor;
    });
  }

  /** The editor code goes into: the active one, else the last one used (shown again if needed). */
  async targetEditor(): Promise<vscode.TextEditor | undefined> {
    const active = usable(vscode.window.activeTextEditor);
    if (active) return active;
    const last = this.last;
    if (last === undefined || last.document.isClosed) return undefined;
    const visible = vscode.window.visibleTextEditors.find((e) => e.document === last.document);
    return vscode.window.showTextDocument(last.document, { viewColumn: visible?.viewColumn ?? last.viewColumn, preserveFocus: false, selection: last.selection });
  }

  async run(action: CodeAction, code: string, language: string): Promise<string> {
    switch (action) {
      case "copy":
        await vscode.env.clipboard.writeText(code);
        return "Copied the code.";
      case "newFile": {
        const document = await vscode.workspace.openTextDocument({ content: code, language: await languageId(language) });
        await vscode.window.showTextDocument(document);
        return "Opened the code in a new file.";
      }
      case "insert":
      case "replace": {
        const editor = await this.targetEditor();
        if (editor === undefined) throw new Error("No editor to put the code into: open a file first.");
        const done = await editor.edit((edit) => {
          for (const selection of editor.selections) {
            if (action === "replace") edit.replace(selection, code);
            else edit.insert(selection.active, code);
          }
        });
        if (!done) throw new Error("The editor did not accept the change (is it read-only?).");
        await vscode.window.showTextDocument(editor.document, { viewColumn: editor.viewColumn, preserveFocus: false });
        return action === "insert" ? "Inserted the code at the cursor." : "Replaced the selection with the code.";
      }
    }
  }

  dispose(): void {
    this.subscription.dispose();
  }
}

/** Text editors the user edits (not output panels or other virtual documents). */
function usable(editor: vscode.TextEditor | undefined): vscode.TextEditor | undefined {
  const scheme = editor?.document.uri.scheme;
  return scheme === "file" || scheme === "untitled" || scheme === "vscode-remote" || scheme === "vscode-userdata" ? editor : undefined;
}

/** Code-fence names that differ from VS Code's language ids. */
const fenceToLanguageId: Record<string, string> = { ts: "typescript", js: "javascript", py: "python", sh: "shellscript", bash: "shellscript", shell: "shellscript", yml: "yaml", rs: "rust", "c++": "cpp", md: "markdown", html: "html", jsonc: "jsonc" };

/** The editor language for a code fence's info string; plain text when the editor knows none. */
async function languageId(fence: string): Promise<string> {
  const name = fence.toLowerCase();
  const id = fenceToLanguageId[name] ?? name;
  return (await vscode.languages.getLanguages()).includes(id) ? id : "plaintext";
}
