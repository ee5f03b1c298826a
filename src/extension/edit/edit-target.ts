import * as vscode from "vscode";
import { describeBlock, enclosingBlock, type SymbolNode } from "../../core/edit/enclosing-block";
import { contextLines, type EditDiagnostic, type EditRequestInput } from "../../core/edit/edit-prompt";
import type { BlockText } from "../../core/edit/block-text";
import { fileUriOf } from "../notebook-cell";

/** The whole lines an edit replaces, and how the user is told about them when nothing was selected. */
export interface EditTarget {
  readonly document: vscode.TextDocument;
  readonly startLine: number;
  /** Inclusive. */
  readonly endLine: number;
  readonly note?: string;
}

/** The selected lines; without a selection, the function or block around the cursor. */
export async function targetOf(editor: vscode.TextEditor): Promise<EditTarget> {
  const { document, selection } = editor;
  const selected = selectedLines(selection);
  if (selected) return { document, ...selected };
  const symbols = await documentSymbols(document);
  const lines = Array.from({ length: document.lineCount }, (_, i) => document.lineAt(i).text);
  const block = enclosingBlock(symbols, lines, selection.active.line);
  if (block === undefined) throw new Error("Nothing to edit here: select the code to change, or put the cursor in a function or a paragraph of code.");
  return { document, startLine: block.startLine, endLine: block.endLine, note: `Nothing was selected: editing ${describeBlock(block)}.` };
}

/** The whole lines a selection covers; a selection ending at column 0 of a line does not take that line. */
export function selectedLines(selection: vscode.Selection): { startLine: number; endLine: number } | undefined {
  if (selection.isEmpty) return undefined;
  const endLine = selection.end.character === 0 && selection.end.line > selection.start.line ? selection.end.line - 1 : selection.end.line;
  return { startLine: selection.start.line, endLine };
}

async function documentSymbols(document: vscode.TextDocument): Promise<SymbolNode[]> {
  try {
    const found = await vscode.commands.executeCommand<(vscode.DocumentSymbol | vscode.SymbolInformation)[] | undefined>("vscode.executeDocumentSymbolProvider", document.uri);
    return (found ?? []).map(toNode);
  } catch {
    return [];
  }
}

function toNode(symbol: vscode.DocumentSymbol | vscode.SymbolInformation): SymbolNode {
  const range = "range" in symbol ? symbol.range : symbol.location.range;
  const children = "children" in symbol ? symbol.children.map(toNode) : [];
  return { name: symbol.name, kind: vscode.SymbolKind[symbol.kind], startLine: range.start.line, endLine: range.end.line, children };
}

/** The target's lines as a block, in the document's line endings. */
export function blockOf(target: EditTarget): BlockText {
  const { document, startLine, endLine } = target;
  const lines = Array.from({ length: endLine - startLine + 1 }, (_, i) => document.lineAt(startLine + i).text);
  return { lines, eol: document.eol === vscode.EndOfLine.CRLF ? "\r\n" : "\n", finalEol: endLine < document.lineCount - 1 };
}

const severities: Record<vscode.DiagnosticSeverity, EditDiagnostic["severity"]> = { 0: "error", 1: "warning", 2: "info", 3: "hint" };

/** What the model is told: the block, the lines around it, the diagnostics on it, the instruction. */
export function requestInput(target: EditTarget, instruction: string): EditRequestInput {
  const { document, startLine, endLine } = target;
  const line = (i: number) => document.lineAt(i).text;
  const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from) }, (_, i) => line(from + i));
  const diagnostics = vscode.languages
    .getDiagnostics(document.uri)
    .filter((d) => d.range.start.line <= endLine && d.range.end.line >= startLine)
    .map((d) => ({ line: d.range.start.line, severity: severities[d.severity], message: d.message }));
  return {
    instruction,
    path: vscode.workspace.asRelativePath(fileUriOf(document.uri), false),
    language: document.languageId,
    startLine,
    lines: range(startLine, endLine + 1),
    before: range(Math.max(0, startLine - contextLines), startLine),
    after: range(endLine + 1, Math.min(document.lineCount, endLine + 1 + contextLines)),
    diagnostics,
  };
}
