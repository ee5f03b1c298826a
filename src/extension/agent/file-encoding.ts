import * as vscode from "vscode";
import { editorDecoder } from "../../core/base/editor-encoding";
import { languageOfPath, type ContributedLanguage } from "../../core/base/language-of-path";

/**
 * Whether files.encoding gives the file an encoding other than UTF-8 (windows1252, latin1,
 * utf16le…): the editor reads and saves it in that encoding, so the agent's tools read and write
 * it through the editor, where bytes written as UTF-8 would show as other characters there.
 */
export function encodedNotUtf8(uri: vscode.Uri): boolean {
  const encoding = encodingOf(uri);
  return encoding !== undefined && encoding !== "utf8" && encoding !== "utf8bom";
}

/** The file's bytes as the editor reads them: in the encoding files.encoding gives it (the task's originals, a file on disk). */
export function decodeAsEditor(bytes: Uint8Array, uri: vscode.Uri | undefined): string {
  return editorDecoder(uri === undefined ? vscode.workspace.getConfiguration("files").get<string>("encoding") : encodingOf(uri)).decode(bytes);
}

/**
 * files.encoding for the file, a language's own value included ("[bat]": {"files.encoding":
 * "cp437"}): asked with the file alone, the configuration leaves language values out, and a
 * closed file has no document to give its language.
 */
function encodingOf(uri: vscode.Uri): string | undefined {
  const files = vscode.workspace.getConfiguration("files", uri);
  const overridden = files.inspect<string>("encoding")?.languageIds ?? [];
  if (overridden.length === 0) return files.get<string>("encoding");
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  const languageId = open?.languageId ?? languageOfPath(uri.path, contributedLanguages(), associations());
  return languageId !== undefined && overridden.includes(languageId) ? vscode.workspace.getConfiguration("files", { uri, languageId }).get<string>("encoding") : files.get<string>("encoding");
}

/** files.associations is a window setting: asked for a file, the editor warns. */
function associations(): Record<string, string> {
  return vscode.workspace.getConfiguration("files").get<Record<string, string>>("associations") ?? {};
}

function contributedLanguages(): ContributedLanguage[] {
  return vscode.extensions.all.flatMap((e) => ((e.packageJSON as { contributes?: { languages?: ContributedLanguage[] } }).contributes?.languages ?? []).filter((l) => typeof l.id === "string"));
}
