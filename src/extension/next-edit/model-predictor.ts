import * as vscode from "vscode";
import type { Hunk } from "../../core/next-edit/edit-history";
import type { NextEdit } from "../../core/next-edit/predict-next-edits";
import { buildSweepPrompt, originalWindow, sweepAnswerEdits, sweepChange, sweepStop, sweepWindow } from "../../core/next-edit/sweep-prompt";
import type { CompletionClient } from "../completion/client-stream";

/** What the model is asked about: a document's text (as the edit history holds it) and the user's edits. */
export interface ModelQuestion {
  readonly document: vscode.TextDocument;
  readonly text: string;
  readonly cursor: number;
  /** The document's latest edit, already in `text`. */
  readonly latest: Hunk;
  /** The latest edits across documents, oldest first, each with its document's current text. */
  readonly recent: readonly { readonly hunk: Hunk; readonly text: string }[];
}

export interface ModelPredictorDeps {
  readonly client: () => Promise<CompletionClient>;
  /** `wisp.nextEdit.model`: empty, no model is asked. */
  readonly model: () => string;
  /** wisp.sensitiveFiles and .wispignore: such files' text never goes out by itself. */
  readonly isSensitive: (uri: vscode.Uri) => boolean;
  readonly log: { debug(message: string): void };
}

/** The window around the cursor is 21 lines: its rewrite fits well within this. */
const maxTokens = 1024;

/**
 * Next edits from Sweep's next-edit model: the prompt in its format (`sweep-prompt.ts`) goes raw
 * to the server's /v1/completions, streamed until a stop token, and the rewritten window comes back
 * as edits. Aborting `signal` closes the stream, which stops generation on the server.
 */
export class ModelPredictor {
  constructor(private readonly deps: ModelPredictorDeps) {}

  /** Whether a model is set and `document`'s text may be sent. */
  asks(document: vscode.TextDocument): boolean {
    return this.deps.model() !== "" && !this.deps.isSensitive(document.uri);
  }

  /** The model's edits; none when it fails or is cancelled (the local suggestion, if any, stays). */
  async predict(question: ModelQuestion, signal: AbortSignal): Promise<NextEdit[]> {
    try {
      return await this.ask(question, signal);
    } catch (error) {
      if (!signal.aborted) this.deps.log.debug(`Next edit: the model's request failed: ${error instanceof Error ? error.message : String(error)}`);
      return [];
    }
  }

  private async ask(question: ModelQuestion, signal: AbortSignal): Promise<NextEdit[]> {
    const { text, cursor, latest } = question;
    const window = sweepWindow(text, cursor);
    const currentWindow = text.slice(window.start, window.end);
    const recent = question.recent.filter(({ hunk }) => !this.deps.isSensitive(vscode.Uri.parse(hunk.uri)));
    const prompt = buildSweepPrompt({
      path: promptPath(question.document.uri),
      originalWindow: originalWindow(text, latest, window),
      currentWindow,
      recentChanges: recent.map(({ hunk, text: its }) => sweepChange(promptPath(vscode.Uri.parse(hunk.uri)), its, hunk)),
    });
    if (prompt === undefined) return [];
    const api = await this.deps.client();
    let answer = "";
    const body = { model: this.deps.model(), prompt, max_tokens: maxTokens, temperature: 0, stop: [...sweepStop] };
    for await (const delta of api.streamCompletion(body, signal)) {
      answer += delta.text;
      // A server that ignores `stop` would go on into another file.
      if (sweepStop.some((token) => answer.includes(token))) break;
    }
    if (signal.aborted) return [];
    const edits = sweepAnswerEdits(text, window, answer);
    this.deps.log.debug(`Next edit: the model proposed ${edits.length} edit(s) in lines ${question.document.positionAt(window.start).line + 1}-${question.document.positionAt(window.end).line + 1}`);
    return edits;
  }
}

/** The file's path as the prompt names it: relative to the workspace, as Zed does; "untitled" for a new file. */
function promptPath(uri: vscode.Uri): string {
  return uri.scheme === "untitled" ? "untitled" : vscode.workspace.asRelativePath(uri, false);
}
