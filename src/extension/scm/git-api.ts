import * as vscode from "vscode";
import { gitExtensionApi, gitExtensionMissing, type GitExtensionExports } from "../../core/scm/git-extension-api";

/** The part of the built-in Git extension's API (`vscode.git`, getAPI(1)) that Wisp uses. */
export interface GitRepository {
  readonly rootUri: vscode.Uri;
  readonly inputBox: { value: string };
  readonly state: {
    readonly HEAD?: { readonly name?: string; readonly commit?: string };
    readonly indexChanges: readonly GitChange[];
    readonly workingTreeChanges: readonly GitChange[];
    /** Newer Git extensions list untracked files here rather than among the working tree's changes. */
    readonly untrackedChanges?: readonly GitChange[];
    /** The commit a rebase stopped at (a conflict, an edit); VS Code's commit then continues the rebase. */
    readonly rebaseCommit?: unknown;
  };
  status(): Promise<void>;
  /** `git diff` (working tree against the index), or `git diff --cached`. */
  diff(cached?: boolean): Promise<string>;
  /** `git diff <ref> --name-status` as changes, or one file's `git diff <ref> -- path`. */
  diffWith(ref: string): Promise<GitChange[]>;
  diffWith(ref: string, path: string): Promise<string>;
  diffIndexWithHEAD(): Promise<GitChange[]>;
  diffIndexWithHEAD(path: string): Promise<string>;
  log(options?: { maxEntries?: number }): Promise<{ readonly message: string; readonly parents?: readonly string[] }[]>;
  /** `git config --get key`; rejects when the key is not set. */
  getConfig(key: string): Promise<string>;
}

export interface GitChange {
  readonly uri: vscode.Uri;
  /** A rename's old path (else the same as uri). */
  readonly originalUri?: vscode.Uri;
  readonly status: number;
}

/** Status.UNTRACKED of the Git extension's API. */
export const untrackedStatus = 7;

export interface GitApi {
  readonly repositories: readonly GitRepository[];
  getRepository(uri: vscode.Uri): GitRepository | null;
}

/** A command found nothing to send (no repository, no changes): the user reads why, and no request is made. */
export class NothingToSendError extends Error {}

/** The Git extension's API, activated if need be; a readable error when it is disabled. */
export async function gitApi(): Promise<GitApi> {
  const extension = vscode.extensions.getExtension<GitExtensionExports<GitApi>>("vscode.git");
  if (extension === undefined) throw new NothingToSendError(gitExtensionMissing(vscode.workspace.isTrusted));
  const found = gitExtensionApi(extension.isActive ? extension.exports : await extension.activate(), vscode.workspace.getConfiguration("git", null).get<boolean>("enabled", true));
  if ("unavailable" in found) throw new NothingToSendError(found.unavailable);
  return found.api;
}

/**
 * The repository a command means: the one named by its argument (a Source Control view button
 * passes its SourceControl, which has the repository's rootUri; a caller may pass a Uri), else the
 * active editor's, else the only one open.
 */
export async function repositoryFor(arg: unknown): Promise<GitRepository> {
  const api = await gitApi();
  const named = arg instanceof vscode.Uri ? arg : (arg as { rootUri?: unknown } | undefined)?.rootUri;
  if (named instanceof vscode.Uri) {
    const found = api.getRepository(named);
    if (found) return found;
  }
  const active = vscode.window.activeTextEditor?.document.uri;
  const repository = (active && api.getRepository(active)) || (api.repositories.length === 1 ? api.repositories[0] : undefined);
  if (repository) return repository;
  if (api.repositories.length > 1) throw new NothingToSendError("Several git repositories are open: use the button of the one you mean in the Source Control view, or open one of its files first.");
  throw new NothingToSendError("No git repository is open in this window: open a folder that is one (or run git init).");
}

/** A path inside the repository, with forward slashes. */
export function repositoryPath(repository: GitRepository, uri: vscode.Uri): string {
  const root = repository.rootUri.path.replace(/\/$/, "");
  return uri.path.startsWith(`${root}/`) ? uri.path.slice(root.length + 1) : uri.path;
}
