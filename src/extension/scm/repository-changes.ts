import { lstat, readlink } from "node:fs/promises";
import * as vscode from "vscode";
import { binaryFileSection, newFileSection } from "../../core/scm/changes-diff";
import { unresolvedConflicts } from "../../core/scm/unresolved-conflicts";
import { readTextFile } from "../context/text-files";
import { NothingToSendError, repositoryPath, untrackedStatus, type GitRepository } from "./git-api";

/** Untracked files larger than this are listed as too large, not read. */
const maxUntrackedBytes = 512 * 1024;

/** The changes a commit would take, as one diff: the staged ones, else all of them (untracked files too, as the git settings say). */
export interface RepositoryChanges {
  readonly diff: string;
  readonly staged: boolean;
}

/**
 * The staged changes, or all changes when nothing is staged. An untracked file that may hold
 * secrets is never read: its section names it and nothing more.
 */
export async function changesToCommit(repository: GitRepository, isSensitive: (uri: vscode.Uri) => boolean): Promise<RepositoryChanges> {
  await repository.status();
  // VS Code's commit then runs git rebase --continue, which keeps the commit's own message: one written into the box is dropped.
  if (repository.state.rebaseCommit !== undefined) throw new NothingToSendError("A rebase is in progress: VS Code's commit continues it (git rebase --continue), which keeps the commit's own message, so a message written now would not be used. Finish the rebase first; to change a message, reword that commit (git rebase -i).");
  const staged = await repository.diff(true);
  const conflicts = unresolvedConflicts(staged);
  if (conflicts !== undefined) throw new NothingToSendError(conflicts);
  if (staged.trim() !== "") return { diff: staged, staged: true };
  const tracked = await repository.diff(false);
  const untracked = await Promise.all((commitTakesUntracked(repository) ? untrackedFiles(repository) : []).map((uri) => untrackedSection(repository, uri, isSensitive)));
  const diff = [tracked, ...untracked].filter((d) => d.trim() !== "").map((d) => (d.endsWith("\n") ? d : `${d}\n`)).join("");
  if (diff.trim() === "") throw new NothingToSendError(`There are no changes to commit in ${vscode.workspace.asRelativePath(repository.rootUri, false) || "this repository"}.`);
  return { diff, staged: false };
}

/**
 * Whether VS Code's commit with nothing staged takes untracked files too: it commits tracked
 * changes only when git.smartCommitChanges is "tracked" or git.untrackedChanges is not "mixed".
 */
function commitTakesUntracked(repository: GitRepository): boolean {
  const git = vscode.workspace.getConfiguration("git", repository.rootUri);
  return git.get<string>("smartCommitChanges", "all") === "all" && git.get<string>("untrackedChanges", "mixed") === "mixed";
}

export function untrackedFiles(repository: GitRepository): vscode.Uri[] {
  const { untrackedChanges, workingTreeChanges } = repository.state;
  return [...(untrackedChanges ?? []), ...workingTreeChanges].filter((c) => c.status === untrackedStatus).map((c) => c.uri);
}

async function untrackedSection(repository: GitRepository, uri: vscode.Uri, isSensitive: (uri: vscode.Uri) => boolean): Promise<string> {
  const path = repositoryPath(repository, uri);
  if (isSensitive(uri)) return newFileSection(path, "");
  try {
    // A link is committed as the path it points to: the file there (maybe outside the repository) is not read.
    const link = await linkTarget(uri);
    if (link !== undefined) return newFileSection(path, link, "120000");
    const file = await readTextFile(uri, { maxBytes: maxUntrackedBytes });
    if (file.kind === "binary") return binaryFileSection(path);
    if (file.kind === "too-large") return `${newFileSection(path, "")}@@ -0,0 +1 @@\n+[a new file over ${maxUntrackedBytes / 1024} KB: its content is left out]\n`;
    return newFileSection(path, file.text);
  } catch {
    // A folder (an untracked nested repository) or a file gone since the status.
    return "";
  }
}

/** Where a symbolic link points ("" when the file system does not say), undefined for a file that is no link. */
export async function linkTarget(uri: vscode.Uri): Promise<string | undefined> {
  if (uri.scheme === "file") return (await lstat(uri.fsPath)).isSymbolicLink() ? readlink(uri.fsPath) : undefined;
  return ((await vscode.workspace.fs.stat(uri)).type & vscode.FileType.SymbolicLink) !== 0 ? "" : undefined;
}
