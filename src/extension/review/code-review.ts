import * as vscode from "vscode";
import { parseFindings } from "../../core/review/findings";
import { findingsMarkdown, reviewMessages, reviewSummary } from "../../core/review/review-prompt";
import { fitListing, placeFindings, type PlacedFinding, type Placement } from "../../core/review/review-scope";
import { diffBudgetChars } from "../../core/scm/diff-budget";
import type { ClientFactory } from "../client-factory";
import type { Logger } from "../logger";
import type { Settings } from "../settings";
import type { ChatModelChoice } from "../scm/chat-model-setup";
import { NothingToSendError } from "../scm/git-api";
import { FindingsRequester } from "./review-request";
import type { ReviewComments } from "./review-comments";
import type { ReviewScope } from "./review-targets";

/** How a review ended (the commands return it, for the extension's tests). */
export type ReviewOutcome =
  | { readonly kind: "shown"; readonly summary: string; readonly threads: number; readonly via: "response_format" | "tool" }
  | { readonly kind: "nothing" | "error" | "cancelled"; readonly reason: string };

export interface CodeReviewDeps {
  readonly settings: Settings;
  readonly clients: ClientFactory;
  readonly log: Logger;
  readonly models: ChatModelChoice;
  readonly comments: ReviewComments;
  /** Adds the review's question and its list of findings to the chat. */
  readonly report: (question: string, answer: string, model: string) => Promise<void>;
}

/**
 * A review: the reviewed lines go to the chat model, which answers with findings as structured
 * output; those that fit the reviewed lines become comment threads and a list in the chat, the
 * rest are counted in one line. An answer that is not JSON shows nothing but its error.
 */
export class CodeReview {
  private readonly requester = new FindingsRequester();

  constructor(private readonly deps: CodeReviewDeps) {}

  async run(scope: () => Promise<ReviewScope>): Promise<ReviewOutcome> {
    let reviewed: ReviewScope;
    try {
      reviewed = await scope();
    } catch (error) {
      if (!(error instanceof NothingToSendError)) throw error;
      void vscode.window.showInformationMessage(`Wisp: ${error.message}`);
      return { kind: "nothing", reason: error.message };
    }
    const title = `Wisp: reviewing ${reviewed.what}`;
    try {
      return await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (_, token) => this.review(reviewed, token));
    } catch (error) {
      const reason = (error as Error).message;
      if ((error as { kind?: string }).kind === "cancelled") return { kind: "cancelled", reason };
      this.deps.log.error(`review: ${reason}`);
      void vscode.window.showErrorMessage(`Wisp: ${reason}`);
      return { kind: "error", reason };
    }
  }

  private async review(scope: ReviewScope, token: vscode.CancellationToken): Promise<ReviewOutcome> {
    const { settings, clients, log, models, comments } = this.deps;
    const setup = await models.setup();
    const maxTokens = settings.value.chat.maxTokens;
    const listing = fitListing(scope.targets.map((t) => t.file), diffBudgetChars(setup.contextTokens, maxTokens));
    const client = await clients.create();
    const controller = new AbortController();
    const cancel = token.onCancellationRequested(() => controller.abort());
    log.info(`review: ${setup.model}, ${scope.what}: ${listing.files.length} file(s), ${listing.text.length} characters${scope.skipped.length ? `, ${scope.skipped.length} left out` : ""}`);
    let answer;
    try {
      answer = await this.requester.ask(client, settings.value.baseUrl, { model: setup.model, temperature: setup.temperature, maxTokens, messages: (asTool) => reviewMessages({ what: scope.what, listing: listing.text, asTool }) }, controller.signal);
    } finally {
      cancel.dispose();
    }
    const parsed = parseFindings(answer.json);
    const targets = new Map(scope.targets.map((t) => [t.file.path, t]));
    const documents = new Map<string, vscode.TextDocument>();
    for (const file of listing.files) documents.set(file.path, await vscode.workspace.openTextDocument(targets.get(file.path)!.uri));
    const placement = stillThere(placeFindings(parsed.findings, listing.files, (file) => documents.get(file.path)!.lineCount), documents);
    const placed = placement.placed.map((p) => ({ placed: p, target: targets.get(p.file.path)! }));
    comments.show(placed.map(({ placed: p, target }) => ({ uri: target.uri, placed: p, languageId: documents.get(p.file.path)!.languageId })));
    const summary = reviewSummary(placement, parsed.malformed);
    log.info(`review: ${summary} (asked through ${answer.via})`);
    await this.deps.report(`Review ${scope.what}`, findingsMarkdown(scope.what, summary, placed.map(({ placed: p }) => ({ path: p.file.path, placed: p }))), setup.model);
    void vscode.window.showInformationMessage(`Wisp: ${summary}`);
    return { kind: "shown", summary, threads: placed.length, via: answer.via };
  }
}

/** Findings whose lines the file no longer has as reviewed (staged changes, an edit meanwhile) count as outside. */
function stillThere(placement: Placement, documents: ReadonlyMap<string, vscode.TextDocument>): Placement {
  const kept: PlacedFinding[] = [];
  let moved = 0;
  for (const p of placement.placed) {
    const document = documents.get(p.file.path)!;
    const same = p.original.every((text, i) => document.lineAt(p.finding.line - 1 + i).text === text);
    if (same) kept.push(p);
    else moved++;
  }
  return { placed: kept, dropped: { ...placement.dropped, outside: placement.dropped.outside + moved } };
}
