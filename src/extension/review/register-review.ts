import * as vscode from "vscode";
import type { ClientFactory } from "../client-factory";
import type { SensitiveConsent } from "../context/sensitive-consent";
import type { Logger } from "../logger";
import { registerWispCommand } from "../run-command";
import type { Settings } from "../settings";
import type { ChatModelChoice } from "../scm/chat-model-setup";
import { CodeReview } from "./code-review";
import { ReviewComments, type ReviewThreadView } from "./review-comments";
import { changesScope, selectionScope } from "./review-targets";

export interface ReviewDeps {
  readonly settings: Settings;
  readonly clients: ClientFactory;
  readonly log: Logger;
  readonly models: ChatModelChoice;
  /** Asks before a sensitive file's selected lines are sent. */
  readonly consent: SensitiveConsent;
  readonly report: (question: string, answer: string, model: string) => Promise<void>;
}

/** What the extension's own tests read of the review's comments. */
export interface ReviewProbe {
  threads(): ReviewThreadView[];
}

/** Review Changes, Review Selection, the comment threads' Apply Fix and Discard, and Clear Review. */
export function registerReview(deps: ReviewDeps): { disposable: vscode.Disposable; probe: ReviewProbe } {
  const comments = new ReviewComments();
  const review = new CodeReview({ ...deps, comments });
  const command = (id: string, run: (...args: unknown[]) => unknown) => registerWispCommand(id, run, deps.log);
  const disposable = vscode.Disposable.from(
    comments,
    // A Source Control view button passes its repository; from the palette, the active file's.
    command("wisp.reviewChanges", (arg) => review.run(() => changesScope(arg, deps.settings.value.review.changes, (uri) => deps.consent.rules.isSensitive(uri)))),
    command("wisp.reviewSelection", () =>
      review.run(async () => {
        const scope = selectionScope(vscode.window.activeTextEditor);
        for (const target of scope.targets) await deps.consent.require(target.uri);
        return scope;
      }),
    ),
    command("wisp.review.applyFix", async (thread) => {
      const done = await comments.applyFix(thread);
      deps.log.info(`review: ${done}`);
      return done;
    }),
    command("wisp.review.discard", (thread) => comments.discard(thread)),
    command("wisp.clearReview", () => comments.clear()),
  );
  return { disposable, probe: { threads: () => comments.views() } };
}
