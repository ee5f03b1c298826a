import * as vscode from "vscode";
import type { CodeAction } from "../../core/chat/protocol";
import { codeAtCursor } from "../../core/edit/code-at-cursor";
import { matchingBlock } from "../../core/edit/matching-block";
import { codeAsGiven } from "../../core/edit/reply-code";
import { workspaceFile } from "../context/workspace-file";
import { editorIndent } from "../edit/editor-indent";
import { selectedLines } from "../edit/edit-target";
import { showDocument } from "../notebook-cell";
import { isUserDocument } from "../user-document";
import { workspacePath } from "../context/workspace-path";

/** Opens code as a reviewed edit of lines `startLine`-`endLine` (inclusive) of the editor. */
export type ApplyAsEdit = (editor: vscode.TextEditor, target: { document: vscode.TextDocument; startLine: number; endLine: number }, code: string) => Promise<void>;

/**
 * The code-block actions of the chat: copy, insert at the cursor or apply to the editor the user
 * last worked in (the panel has the focus when they click) as a reviewed diff, open in a new file.
 */
export class CodeActions implements vscode.Disposable {
  private last: vscode.TextEditor | undefined;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly applyAsEdit: ApplyAsEdit) {
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
    // Still shown (in its group, beside a split of the same file): that editor, with its selection.
    const visible = vscode.window.visibleTextEditors.includes(last) ? last : vscode.window.visibleTextEditors.find((e) => e.document === last.document);
    return vscode.window.showTextDocument(last.document, { viewColumn: visible?.viewColumn ?? last.viewColumn, preserveFocus: false, selection: last.selection });
  }

  /** Runs a code block's action; `path` (workspace-relative) is the file the block names, for Apply. */
  async run(action: CodeAction, code: string, language: string, path?: string): Promise<string> {
    switch (action) {
      case "copy":
        await vscode.env.clipboard.writeText(code);
        return "Copied the code.";
      case "newFile": {
        const document = await vscode.workspace.openTextDocument({ content: code, language: await languageId(language) });
        await vscode.window.showTextDocument(document);
        return "Opened the code in a new file.";
      }
      case "insert": {
        const editor = await this.targetEditor();
        if (editor === undefined) throw new Error("No editor to put the code into: open a file first.");
        const indent = editorIndent(editor.options);
        const done = await editor.edit((edit) => {
          for (const { active } of editor.selections) edit.insert(active, codeAtCursor(code, editor.document.lineAt(active.line).text.slice(0, active.character), indent));
        });
        if (!done) throw new Error("The editor did not accept the change (is it read-only?).");
        await showDocument(editor.document, { viewColumn: editor.viewColumn, preserveFocus: false });
        return "Inserted the code at the cursor.";
      }
      case "apply": {
        const editor = path === undefined ? await this.targetEditor() : await this.fileEditor(path);
        if (editor === undefined) throw new Error("No editor to apply the code to: open a file first.");
        const lines = codeAsGiven(code, true);
        const target = linesToReplace(editor, lines, path !== undefined);
        await this.applyAsEdit(editor, { document: editor.document, ...target }, code);
        return `Opened the change to lines ${target.startLine + 1}-${target.endLine + 1} for review: accept or reject it in the editor.`;
      }
    }
  }

  /** An editor on the workspace file an answer names, opened if need be. */
  private async fileEditor(path: string): Promise<vscode.TextEditor> {
    const uri = await workspaceFile(path);
    if (uri === undefined) throw new Error(`${path} is not a file of this workspace: open the file the code belongs in, select the lines, and Apply again.`);
    // A notebook's code is in its cells: opened as a text file it is the notebook's JSON.
    if (uri.path.toLowerCase().endsWith(".ipynb")) return this.cellEditor(path, uri);
    const open = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString());
    const document = open?.document ?? (await vscode.workspace.openTextDocument(uri));
    return vscode.window.showTextDocument(document, { viewColumn: open?.viewColumn, preview: false });
  }

  /** The cell of notebook `uri` that the user works in (or last did). */
  private async cellEditor(path: string, uri: vscode.Uri): Promise<vscode.TextEditor> {
    const notebook = vscode.workspace.notebookDocuments.find((n) => n.uri.toString() === uri.toString());
    const worked = usable(vscode.window.activeTextEditor) ?? this.last;
    const editor = worked && notebook?.getCells().some((cell) => cell.document === worked.document) ? await this.targetEditor() : undefined;
    if (editor) return editor;
    throw new Error(`${path} is a notebook: open it, click in the cell the code belongs in, and Apply again.`);
  }

  dispose(): void {
    this.subscription.dispose();
  }
}

/**
 * The selected lines, else the block that starts and ends like the code. For a file the answer
 * named (`byMatch`), the matching block comes first: a selection there may be an old one.
 */
function linesToReplace(editor: vscode.TextEditor, code: readonly string[], byMatch = false): { startLine: number; endLine: number } {
  const { document } = editor;
  // The document's lines are read, and the match looked for, at most once and only if needed.
  let match: { found: { startLine: number; endLine: number } | undefined } | undefined;
  const matched = () => (match ??= { found: matchingBlock(Array.from({ length: document.lineCount }, (_, i) => document.lineAt(i).text), code) }).found;
  const target = (byMatch ? matched() : undefined) ?? selectedLines(editor.selection) ?? matched();
  if (target === undefined) throw new Error(`No lines in ${workspacePath(document.uri)} start and end like this code: select the lines it should replace, then Apply again.`);
  return target;
}

/** Text editors the user edits (not output panels, a diff's older side or other views). */
function usable(editor: vscode.TextEditor | undefined): vscode.TextEditor | undefined {
  return editor && isUserDocument(editor.document) ? editor : undefined;
}

/** Code-fence names that differ from VS Code's language ids. */
const fenceToLanguageId: Record<string, string> = { ts: "typescript", js: "javascript", py: "python", sh: "shellscript", bash: "shellscript", shell: "shellscript", yml: "yaml", rs: "rust", "c++": "cpp", md: "markdown", html: "html", jsonc: "jsonc" };

/** The editor language for a code fence's info string; plain text when the editor knows none. */
async function languageId(fence: string): Promise<string> {
  const name = fence.toLowerCase();
  const id = fenceToLanguageId[name] ?? name;
  return (await vscode.languages.getLanguages()).includes(id) ? id : "plaintext";
}
