import * as vscode from "vscode";
import type { FileProblem } from "../../core/customization/front-matter";

/** A problem of a customization file as the editor underlines it. */
export function toDiagnostic(problem: FileProblem): vscode.Diagnostic {
  const range = new vscode.Range(problem.start.line, problem.start.column, problem.end.line, problem.end.column);
  const diagnostic = new vscode.Diagnostic(range, problem.message, problem.severity === "error" ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning);
  diagnostic.source = "Wisp";
  return diagnostic;
}

/** The first error of a file, as the chat says it: where and what. */
export function describeFirstError(source: string, problems: readonly FileProblem[]): string | undefined {
  const error = problems.find((p) => p.severity === "error");
  return error ? `${source}, line ${error.start.line + 1}: ${error.message}` : undefined;
}
