import * as vscode from "vscode";
import type { CodeAttachment } from "../../core/chat/conversation";
import { workspacePath } from "../context/workspace-path";
import { cutAt } from "../../core/base/surrogates";

/** Most characters attached from one editor: enough for a large function, not a whole bundle. */
const maxAttachmentChars = 60_000;

/**
 * The code to attach from an editor: its selection, or, with nothing selected, the lines it shows.
 * Undefined when there is no text to attach.
 */
export function attachmentFromEditor(editor: vscode.TextEditor, newId: () => string): CodeAttachment | undefined {
  const { document, selection } = editor;
  const source = selection.isEmpty ? "visible" : "selection";
  const range = selection.isEmpty ? visibleRange(editor) : withoutTrailingLine(document, selection);
  if (range === undefined) return undefined;
  let text = document.getText(range);
  let endLine = range.end.line;
  if (text.length > maxAttachmentChars) {
    text = cutAt(text, maxAttachmentChars);
    endLine = range.start.line + (text.match(/\n/g)?.length ?? 0);
  }
  if (text.trim() === "") return undefined;
  return {
    id: newId(),
    path: workspacePath(document.uri) || document.fileName,
    language: document.languageId,
    startLine: range.start.line + 1,
    endLine: endLine + 1,
    text,
    source,
  };
}

/** The visible lines (all ranges the editor shows, from the first to the last). */
export function visibleRange(editor: vscode.TextEditor): vscode.Range | undefined {
  const ranges = editor.visibleRanges;
  const first = ranges[0];
  const last = ranges.at(-1);
  if (first === undefined || last === undefined) return undefined;
  const end = editor.document.lineAt(last.end.line).range.end;
  return new vscode.Range(new vscode.Position(first.start.line, 0), end);
}

/** A selection of whole lines ends at column 0 of the next line: that line is not part of it. */
function withoutTrailingLine(document: vscode.TextDocument, selection: vscode.Selection): vscode.Range {
  if (selection.end.character === 0 && selection.end.line > selection.start.line) {
    return new vscode.Range(selection.start, document.lineAt(selection.end.line - 1).range.end);
  }
  return selection;
}
