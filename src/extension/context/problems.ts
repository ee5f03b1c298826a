import * as vscode from "vscode";
import type { CodeAttachment } from "../../core/chat/conversation";
import { workspacePath } from "./workspace-path";

/** Most diagnostics listed: past this many, the first ones say enough. */
const maxProblems = 200;

const severities = ["error", "warning", "info", "hint"];

function line(uri: vscode.Uri, d: vscode.Diagnostic): string {
  const code = typeof d.code === "object" ? d.code.value : d.code;
  const origin = [d.source, code].filter((x) => x !== undefined && x !== "").join(" ");
  const where = `${workspacePath(uri)}:${d.range.start.line + 1}:${d.range.start.character + 1}`;
  return `${where} ${severities[d.severity]}: ${d.message.replace(/\s+/g, " ")}${origin ? ` (${origin})` : ""}`;
}

function attachment(newId: () => string, label: string, path: string, lines: string[]): CodeAttachment {
  const shown = lines.slice(0, maxProblems);
  if (lines.length > shown.length) shown.push(`… and ${lines.length - shown.length} more`);
  return { id: newId(), path, language: "text", startLine: 1, endLine: shown.length, text: shown.join("\n"), source: "problems", label };
}

/**
 * @problems: the active file's diagnostics when it has any, else the whole workspace's. Those of
 * sensitive files are left out: a linter's message can quote the secret it complains about.
 */
export function problemsAttachment(newId: () => string, isSensitive: (uri: vscode.Uri) => boolean): CodeAttachment {
  const active = vscode.window.activeTextEditor?.document.uri;
  const own = active && !isSensitive(active) ? vscode.languages.getDiagnostics(active) : [];
  if (active && own.length > 0) {
    const path = workspacePath(active);
    return attachment(newId, `Problems in ${path} (${own.length})`, path, own.map((d) => line(active, d)));
  }
  const all = vscode.languages.getDiagnostics().flatMap(([uri, list]) => (isSensitive(uri) ? [] : list.map((d) => line(uri, d))));
  if (all.length === 0) throw new Error("There are no problems (errors or warnings) in the workspace.");
  return attachment(newId, `Problems in the workspace (${all.length})`, "workspace", all);
}

/** The diagnostics on a range of lines, for Explain and Find Problems; undefined when there are none. */
export function problemsOnLines(document: vscode.TextDocument, startLine: number, endLine: number, newId: () => string): CodeAttachment | undefined {
  const range = new vscode.Range(startLine - 1, 0, endLine - 1, Number.MAX_SAFE_INTEGER);
  const found = vscode.languages.getDiagnostics(document.uri).filter((d) => d.range.intersection(range) !== undefined);
  if (found.length === 0) return undefined;
  const path = workspacePath(document.uri);
  return attachment(newId, `Problems on ${path}, lines ${startLine}-${endLine} (${found.length})`, path, found.map((d) => line(document.uri, d)));
}
