import * as vscode from "vscode";
import { systemClock, type Clock } from "../../core/base/clock";
import { ContextRing } from "../../core/completion/context-ring";
import { describeOutcome } from "../../core/completion/describe-outcome";
import { CompletionPipeline } from "../../core/completion/pipeline";
import type { CompletionOutcome, CompletionStream } from "../../core/completion/types";
import type { WispSettings } from "../settings";
import { codeSchemes, feedContextRing } from "./context-feeder";
import { InlineCompletionAdapter, toInput } from "./inline-provider";
import { warmOnNavigation } from "./warm-up-triggers";

/** The completion settings, and whether the server fills in the middle with the model's own tokens. */
export type CompletionUserSettings = WispSettings["completion"] & { readonly serverFim?: boolean };

export interface CompletionDeps {
  readonly stream: CompletionStream;
  readonly settings: () => CompletionUserSettings;
  readonly log: { debug(message: string): void; info(message: string): void; error(message: string): void };
  /** Every outcome (status bar: last latency, errors). */
  readonly onOutcome: (outcome: CompletionOutcome) => void;
  /** wisp.sensitiveFiles and .wispignore: such files' text never goes out by itself. */
  readonly isSensitive: (uri: vscode.Uri) => boolean;
  /** The editor's user data folder (settings.json, keybindings, profiles): never context. */
  readonly userDataDir?: vscode.Uri;
  /** A request was sent; call the returned function when it ends (status bar spinner). */
  readonly onRequest?: () => () => void;
  readonly clock?: Clock;
}

/** Registers ghost-text completion for every file; dispose to remove it and stop its requests. */
export function registerCompletions(deps: CompletionDeps): vscode.Disposable {
  const ring = new ContextRing();
  const report = (outcome: CompletionOutcome, document: vscode.TextDocument) => {
    const line = `completion ${describeOutcome(outcome)} (${document.languageId})`;
    if (outcome.kind === "error") deps.log.error(line);
    else deps.log.debug(line);
    deps.onOutcome(outcome);
  };
  // The editor asks the provider after its own debounce; the pipeline's wait counts from the edit.
  const clock = deps.clock ?? systemClock;
  const edits = new WeakMap<vscode.TextDocument, { version: number; at: number }>();
  const editedAt = (document: vscode.TextDocument) => {
    const edit = edits.get(document);
    return edit?.version === document.version ? edit.at : undefined;
  };
  const provider = new InlineCompletionAdapter({
    complete: (input, signal) => pipeline.complete(input, signal),
    settings: deps.settings,
    report,
    fail: (error) => deps.log.error(`completion failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
    editedAt,
    isSensitive: deps.isSensitive,
  });
  const pipeline = new CompletionPipeline({
    stream: deps.stream,
    settings: deps.settings,
    ring,
    onMoreText: () => provider.showRest(),
    ...(deps.clock ? { clock: deps.clock } : {}),
    ...(deps.onRequest ? { onRequest: deps.onRequest } : {}),
  });
  const warmable = (document: vscode.TextDocument) => {
    const settings = deps.settings();
    return settings.enabled && !settings.disabledLanguages.includes(document.languageId) && codeSchemes.has(document.uri.scheme) && !deps.isSensitive(document.uri) && inlineSuggestOn(document);
  };
  return vscode.Disposable.from(
    vscode.languages.registerInlineCompletionItemProvider({ pattern: "**" }, provider),
    warmOnNavigation((document, position) => pipeline.warm(toInput(document, position, position, "", false)), warmable),
    feedContextRing(ring, deps.isSensitive, deps.userDataDir),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.contentChanges.length > 0) edits.set(e.document, { version: e.document.version, at: clock.now() });
    }),
    { dispose: () => pipeline.dispose() },
  );
}

/**
 * Whether the editor shows ghost text by itself in `document` (editor.inlineSuggest.enabled, also
 * set per language): where it does not, a warm-up prepares a completion that never comes and sends
 * the file's text to the server for nothing.
 */
function inlineSuggestOn(document: vscode.TextDocument): boolean {
  return vscode.workspace.getConfiguration("editor", document).get<boolean>("inlineSuggest.enabled") !== false;
}
