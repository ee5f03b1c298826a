import { lstat, readlink, stat } from "node:fs/promises";
import * as vscode from "vscode";
import { unresolvedConflicts } from "../../core/scm/unresolved-conflicts";
import { untrackedSections, type UntrackedEntry, type UntrackedIo } from "../../core/scm/untracked-sections";
import { readTextFile } from "../context/text-files";
import { NothingToSendError, repositoryPath, untrackedStatus, type GitRepository } from "./git-api";

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
  const untracked = commitTakesUntracked(repository) ? await untrackedChanges(repository, isSensitive) : [];
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

/** The untracked files' sections, read a few at a time (untracked-sections.ts). */
async function untrackedChanges(repository: GitRepository, isSensitive: (uri: vscode.Uri) => boolean): Promise<string[]> {
  const uris = new Map(untrackedFiles(repository).map((uri) => [repositoryPath(repository, uri), uri]));
  const io: UntrackedIo = {
    inspect: (path) => entryOf(uris.get(path)!),
    read: (path, maxBytes) => readTextFile(uris.get(path)!, { maxBytes }),
  };
  return untrackedSections([...uris.keys()], io, (path) => isSensitive(uris.get(path)!));
}

async function entryOf(uri: vscode.Uri): Promise<UntrackedEntry> {
  const link = await linkTarget(uri);
  if (link !== undefined) return { kind: "link", target: link };
  if (uri.scheme === "file") {
    const info = await stat(uri.fsPath);
    return info.isFile() ? { kind: "file", size: info.size } : { kind: "none" };
  }
  const info = await vscode.workspace.fs.stat(uri);
  return (info.type & vscode.FileType.File) !== 0 ? { kind: "file", size: info.size } : { kind: "none" };
}

/** Where a symbolic link points ("" when the file system does not say), undefined for a file that is no link. */
export async function linkTarget(uri: vscode.Uri): Promise<string | undefined> {
  if (uri.scheme === "file") return (await lstat(uri.fsPath)).isSymbolicLink() ? readlink(uri.fsPath) : undefined;
  return ((await vscode.workspace.fs.stat(uri)).type & vscode.FileType.SymbolicLink) !== 0 ? "" : undefined;
}
