import * as vscode from "vscode";
import type { CodeAttachment } from "../../core/chat/conversation";
import { gitContextText } from "../../core/context/git-context-text";
import { gitApi } from "../scm/git-api";

/** A diff larger than this is cut: the model cannot use a whole refactor's diff anyway. */
const maxDiffChars = 100_000;

/**
 * @git: the uncommitted changes (staged and not) of the active file's repository, as a diff,
 * without the changes of sensitive files (the diff names them as left out), secrets masked.
 */
export async function gitChanges(newId: () => string, isSensitive: (uri: vscode.Uri) => boolean): Promise<CodeAttachment> {
  const api = await gitApi().catch((error: Error) => {
    throw new Error(`@git: ${error.message}`);
  });
  const active = vscode.window.activeTextEditor?.document.uri;
  const repository = (active && api.getRepository(active)) || api.repositories[0];
  if (repository === undefined) throw new Error("@git: this workspace is not in a git repository.");
  const [staged, unstaged] = await Promise.all([repository.diff(true), repository.diff(false)]);
  const diff = [staged, unstaged].filter((d) => d.trim() !== "").join("\n");
  if (diff.trim() === "") throw new Error("@git: there are no uncommitted changes.");
  const text = gitContextText(diff, (path) => isSensitive(vscode.Uri.joinPath(repository.rootUri, path)), maxDiffChars);
  const lines = text.split("\n").length;
  return { id: newId(), path: vscode.workspace.asRelativePath(repository.rootUri, false) || ".", language: "diff", startLine: 1, endLine: lines, text, source: "git", label: "Uncommitted changes (git diff)" };
}
