import * as vscode from "vscode";
import { changesDiff } from "../../core/scm/changes-diff";
import { withoutCommentLines } from "../../core/scm/commit-draft";
import { commitBoxText, commitMessages, recentSubjectCount, subjectsOf } from "../../core/scm/commit-prompt";
import { diffBudgetChars } from "../../core/scm/diff-budget";
import type { ClientFactory } from "../client-factory";
import type { Logger } from "../logger";
import type { Settings } from "../settings";
import type { ChatModelChoice } from "./chat-model-setup";
import { NothingToSendError, repositoryFor, type GitRepository } from "./git-api";
import { changesToCommit } from "./repository-changes";
import { setContext } from "../set-context";

/** Commit messages are short: more tokens than this only make a long one possible. */
const maxAnswerTokens = 400;
export const generatingContext = "wisp.commitMessage.generating";
/** Commits read for the recent subjects: enough for the subjects wanted once merges are left out. */
const logEntries = recentSubjectCount * 3;
/** Values remembered per repository box (a message streams as a few hundred). */
const maxRemembered = 5_000;

/** How a Generate Commit Message ended (the command returns it, for the extension's tests). */
export type CommitOutcome =
  | { readonly kind: "written" | "stopped"; readonly message: string }
  /** Nothing was sent: no repository, no changes. */
  | { readonly kind: "nothing"; readonly reason: string }
  | { readonly kind: "error"; readonly reason: string }
  /** This call stopped a generation already under way. */
  | { readonly kind: "stopping" };

export interface CommitMessageDeps {
  readonly settings: Settings;
  readonly clients: ClientFactory;
  readonly log: Logger;
  readonly models: ChatModelChoice;
  readonly isSensitive: (uri: vscode.Uri) => boolean;
}

/**
 * Generate Commit Message: the repository's staged changes (or all of them) and recent subjects
 * go to the chat model, and its answer streams into that repository's commit box. Running it
 * again for the same repository stops it; so does typing in the box.
 */
export class CommitMessages implements vscode.Disposable {
  private readonly running = new Map<string, AbortController>();
  private readonly written = new Map<string, Set<string>>();

  constructor(private readonly deps: CommitMessageDeps) {}

  async toggle(arg: unknown): Promise<CommitOutcome> {
    let repository: GitRepository;
    try {
      repository = await repositoryFor(arg);
    } catch (error) {
      return this.nothing(error);
    }
    const key = repository.rootUri.toString();
    const current = this.running.get(key);
    if (current) {
      current.abort();
      return { kind: "stopping" };
    }
    const controller = new AbortController();
    this.running.set(key, controller);
    void this.setGenerating();
    try {
      return await vscode.window.withProgress({ location: vscode.ProgressLocation.SourceControl, title: "Wisp: writing the commit message" }, () => this.generate(repository, controller.signal));
    } catch (error) {
      if (error instanceof NothingToSendError) return this.nothing(error);
      const reason = (error as Error).message;
      this.deps.log.error(`commit message: ${reason}`);
      void vscode.window.showErrorMessage(`Wisp: ${reason}`);
      return { kind: "error", reason };
    } finally {
      this.running.delete(key);
      void this.setGenerating();
    }
  }

  /** Stops the generation for the repository `arg` names (every one when it names none). */
  async stop(arg: unknown): Promise<void> {
    const named = arg instanceof vscode.Uri || (arg as { rootUri?: unknown } | undefined)?.rootUri instanceof vscode.Uri;
    if (!named) return this.stopAll();
    const repository = await repositoryFor(arg).catch(() => undefined);
    if (repository) this.running.get(repository.rootUri.toString())?.abort();
  }

  stopAll(): void {
    for (const controller of this.running.values()) controller.abort();
  }

  dispose(): void {
    this.stopAll();
  }

  private async generate(repository: GitRepository, signal: AbortSignal): Promise<CommitOutcome> {
    const { settings, clients, log, models } = this.deps;
    const changes = await changesToCommit(repository, this.deps.isSensitive);
    // Merges ("Merge pull request #12 from …") say nothing of the team's style, and a small model copies them.
    const commits = (await repository.log({ maxEntries: logEntries }).catch(() => [])).filter((c) => (c.parents?.length ?? 0) < 2);
    const subjects = subjectsOf(commits.map((c) => c.message)).slice(0, recentSubjectCount);
    const setup = await models.setup();
    const answerTokens = Math.min(settings.value.chat.maxTokens, maxAnswerTokens);
    const diff = changesDiff(changes.diff, {
      isSensitive: (path) => this.deps.isSensitive(vscode.Uri.joinPath(repository.rootUri, path)),
      budgetChars: diffBudgetChars(setup.contextTokens, answerTokens),
    });
    const box = repository.inputBox;
    const ours = this.writtenTo(repository);
    // Text in the box that Wisp did not write is the user's (a ticket reference, a merge's prefilled message): the model builds on it.
    // A template's or merge message's comments are git's, not the user's words (commit-draft.ts).
    const userText = ours.has(box.value) ? undefined : box.value;
    const commentChar = userText === undefined ? undefined : await repository.getConfig("core.commentChar").catch(() => undefined);
    const draft = userText === undefined ? "" : withoutCommentLines(userText, commentChar).trim();
    const messages = commitMessages({ diff: diff.text, staged: changes.staged, recentSubjects: subjects, instructions: settings.value.commitMessage.instructions, branch: repository.state.HEAD?.name, draft });
    log.info(`commit message: ${setup.model}, ${changes.staged ? "staged" : "all"} changes of ${diff.sent.length} file(s) sent (${diff.cut.length} cut), ${diff.listed.length} named only, ${subjects.length} recent subjects${draft ? ", the box's draft" : ""}`);
    const client = await clients.create();
    const before = box.value;
    ours.add(before);
    let answer = "";
    let stopped = false;
    try {
      for await (const delta of client.streamChat({ model: setup.model, messages, temperature: setup.temperature, max_tokens: answerTokens }, signal)) {
        if (!ours.has(box.value)) {
          stopped = true;
          break;
        }
        answer += delta.content;
        const text = commitBoxText(answer, false);
        // Until the first words arrive the box keeps what it held: a stop then loses nothing.
        if (text === "") continue;
        ours.add(text);
        box.value = text;
      }
    } catch (error) {
      if (!signal.aborted) throw error;
      stopped = true;
    }
    const written = commitBoxText(answer, true);
    const typed = !ours.has(box.value);
    // An answer with no message (a reasoning model that spent its tokens thinking) leaves the box as it was.
    if (!typed) box.value = written || before;
    if (written === "" && !stopped) throw new Error(`the model (${setup.model}) answered with no commit message; the commit box is left as it was. Try again, or pick another model in wisp.chat.model.`);
    log.info(`commit message: ${stopped ? "stopped" : "written"} (${box.value.length} characters)`);
    return { kind: stopped ? "stopped" : "written", message: typed ? box.value : written || before };
  }

  /**
   * Every value written to the repository's box: the editor echoes each one back a little later
   * (an earlier message's too), so the box may still show one of them. A value not among them is
   * the user's typing.
   */
  private writtenTo(repository: GitRepository): Set<string> {
    const key = repository.rootUri.toString();
    let values = this.written.get(key);
    if (values === undefined || values.size > maxRemembered) this.written.set(key, (values = new Set()));
    return values;
  }

  private nothing(error: unknown): CommitOutcome {
    if (!(error instanceof NothingToSendError)) throw error;
    void vscode.window.showInformationMessage(`Wisp: ${error.message}`);
    return { kind: "nothing", reason: error.message };
  }

  private setGenerating(): Thenable<unknown> {
    return setContext(generatingContext, this.running.size > 0);
  }
}
