import * as vscode from "vscode";
import { diffSections } from "../../core/context/diff-files";
import { generatedReason, reasonToList } from "../../core/scm/changes-diff";
import { blockOfLines, blocksOfDiff, type ReviewedFile } from "../../core/review/review-scope";
import { readTextFile } from "../context/text-files";
import { selectedLines } from "../edit/edit-target";
import { NothingToSendError, repositoryFor, repositoryPath, type GitChange, type GitRepository } from "../scm/git-api";
import { linkTarget, untrackedFiles } from "../scm/repository-changes";

/** A file of the review: as the model sees it, and where its comments go. */
export interface ReviewTarget {
  readonly file: ReviewedFile;
  readonly uri: vscode.Uri;
}

export interface ReviewScope {
  /** What was reviewed, for the prompt and the chat: "the uncommitted changes of app". */
  readonly what: string;
  readonly targets: readonly ReviewTarget[];
  /** Changed files not reviewed: sensitive, lockfiles, generated, binary, deleted. */
  readonly skipped: readonly string[];
}

/** Status.INDEX_DELETED and Status.DELETED of the Git extension's API: nothing left to comment on. */
const deleted = new Set([2, 6]);
const maxFileBytes = 512 * 1024;

/**
 * The changes of a repository as reviewed files: each changed file's hunks on its new side, untracked
 * files whole. "staged": the index against HEAD (comments go to the working tree's lines, and a
 * finding whose lines differ there is not placed).
 */
export async function changesScope(arg: unknown, changes: "uncommitted" | "staged", isSensitive: (uri: vscode.Uri) => boolean): Promise<ReviewScope> {
  const repository = await repositoryFor(arg);
  await repository.status();
  const name = vscode.workspace.asRelativePath(repository.rootUri, false);
  const what = `the ${changes} changes${name && name !== repository.rootUri.fsPath ? ` of ${name}` : ""}`;
  const hasHead = repository.state.HEAD?.commit !== undefined;
  const listed: GitChange[] = hasHead
    ? await (changes === "staged" ? repository.diffIndexWithHEAD() : repository.diffWith("HEAD"))
    : [...repository.state.indexChanges, ...(changes === "staged" ? [] : repository.state.workingTreeChanges)];
  const untracked = changes === "staged" ? [] : untrackedFiles(repository);
  const targets: ReviewTarget[] = [];
  const skipped: string[] = [];
  const seen = new Set<string>();
  for (const change of [...listed, ...untracked.map((uri): GitChange => ({ uri, status: 7 }))]) {
    if (seen.has(change.uri.toString())) continue;
    seen.add(change.uri.toString());
    const path = vscode.workspace.asRelativePath(change.uri, false);
    // A sensitive file renamed (.env to app.env) holds what it held: judged by its old name too, as a commit message's diff is.
    if (deleted.has(change.status) || isSensitive(change.uri) || (change.originalUri !== undefined && isSensitive(change.originalUri))) {
      skipped.push(path);
      continue;
    }
    const file = hasHead && change.status !== 7 ? await diffed(repository, change.uri, changes, path) : await whole(change.uri, path);
    if (file === undefined) skipped.push(path);
    else targets.push({ file, uri: change.uri });
  }
  if (targets.length === 0) {
    throw new NothingToSendError(skipped.length > 0 ? `Nothing to review in ${what}: ${skipped.length} changed file(s) are sensitive, generated, binary or deleted.` : `There are no ${changes} changes to review${name ? ` in ${name}` : ""}.`);
  }
  return { what, targets, skipped };
}

async function diffed(repository: GitRepository, uri: vscode.Uri, changes: "uncommitted" | "staged", path: string): Promise<ReviewedFile | undefined> {
  const inRepository = repositoryPath(repository, uri);
  const diff = changes === "staged" ? await repository.diffIndexWithHEAD(inRepository) : await repository.diffWith("HEAD", inRepository);
  const section = diffSections(diff).find((s) => s.paths.length > 0);
  if (section === undefined || reasonToList(section, () => false) !== undefined) return undefined;
  const blocks = blocksOfDiff(section.text);
  return blocks.length === 0 ? undefined : { path, blocks };
}

/**
 * A new file: every line is new. A symbolic link is its target's path, as git commits it (and
 * as a tracked link's diff shows it): the file there, maybe outside the repository, is not read.
 */
async function whole(uri: vscode.Uri, path: string): Promise<ReviewedFile | undefined> {
  const link = await linkTarget(uri).catch(() => undefined);
  const file = link !== undefined ? { kind: "text" as const, text: link } : await readTextFile(uri, { maxBytes: maxFileBytes }).catch(() => undefined);
  if (file?.kind !== "text" || file.text === "") return undefined;
  const lines = file.text.replace(/\r\n/g, "\n").replace(/\n$/, "").split("\n");
  if (generatedReason(path, lines) !== undefined) return undefined;
  return { path, blocks: [blockOfLines(1, lines)] };
}

/** The active editor's selected lines (the whole file when nothing is selected). */
export function selectionScope(editor: vscode.TextEditor | undefined): ReviewScope {
  if (editor === undefined) throw new NothingToSendError("Open a file and select the code to review.");
  const { document } = editor;
  const lines = selectedLines(editor.selection) ?? { startLine: 0, endLine: document.lineCount - 1 };
  const text = Array.from({ length: lines.endLine - lines.startLine + 1 }, (_, i) => document.lineAt(lines.startLine + i).text);
  if (text.every((l) => l.trim() === "")) throw new NothingToSendError("There is no code to review: select some, or open a file that is not empty.");
  const path = vscode.workspace.asRelativePath(document.uri, false) || document.fileName;
  const range = editor.selection.isEmpty ? "" : ` (lines ${lines.startLine + 1}-${lines.endLine + 1})`;
  return { what: `${path}${range}`, targets: [{ file: { path, blocks: [blockOfLines(lines.startLine + 1, text)] }, uri: document.uri }], skipped: [] };
}
