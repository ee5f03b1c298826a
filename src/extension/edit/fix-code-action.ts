import * as vscode from "vscode";

/** Offers "Fix with Wisp" on each diagnostic under the cursor: an edit whose instruction is the diagnostic's message. */
export class FixWithWisp implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    return context.diagnostics.map((diagnostic) => {
      const action = new vscode.CodeAction("Fix with Wisp", vscode.CodeActionKind.QuickFix);
      action.diagnostics = [diagnostic];
      action.command = {
        title: "Fix with Wisp",
        command: "wisp.fixThis",
        arguments: [{ uri: document.uri.toString(), startLine: diagnostic.range.start.line, endLine: diagnostic.range.end.line, message: diagnostic.message }],
      };
      return action;
    });
  }
}

/** What the Quick Fix hands to Wisp: Fix This. */
export interface FixRequest {
  readonly uri: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly message: string;
}

export function isFixRequest(value: unknown): value is FixRequest {
  const v = value as Partial<FixRequest> | undefined;
  return typeof v?.uri === "string" && typeof v.startLine === "number" && typeof v.endLine === "number" && typeof v.message === "string";
}

/** The instruction a diagnostic becomes. */
export function fixInstruction(message: string): string {
  return `Fix this problem: ${message}`;
}
