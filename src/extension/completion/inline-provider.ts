import * as vscode from "vscode";
import { LinkedAbortController } from "../../core/base/cancellation";
import { maxSuffixChars, prefixStartOffset } from "../../core/completion/document-window";
import { withEarlierCells } from "../../core/completion/notebook-prefix";
import { splitHalves } from "../../core/base/surrogates";
import { fileUriOf, notebookCellOf } from "../notebook-cell";
import type { CompletionPipeline } from "../../core/completion/pipeline";
import type { CompletionInput, CompletionOutcome } from "../../core/completion/types";

export interface ProviderSettings {
  readonly enabled: boolean;
  readonly disabledLanguages: readonly string[];
}

export interface AdapterDeps {
  readonly complete: CompletionPipeline["complete"];
  readonly settings: () => ProviderSettings;
  readonly report: (outcome: CompletionOutcome, document: vscode.TextDocument) => void;
  /** Whatever went wrong on the way: logged, never thrown at the editor. */
  readonly fail: (error: unknown) => void;
  /** Files that may hold secrets: no ghost text comes by itself there (their text would go to the server). */
  readonly isSensitive?: (uri: vscode.Uri) => boolean;
  /** When `document` last changed, on the pipeline's clock (undefined: not seen). */
  readonly editedAt?: (document: vscode.TextDocument) => number | undefined;
}

/**
 * Thin adapter from VS Code's inline completion API to the pipeline: document and position in,
 * ghost text out, the cancellation token wired to an AbortSignal. Nothing it calls can throw into
 * the editor: an error is passed to `fail` and no items are returned.
 */
export class InlineCompletionAdapter implements vscode.InlineCompletionItemProvider {
  /** Where the first line of a still-streaming multi-line suggestion was shown. */
  private partialAt: { readonly document: vscode.TextDocument; readonly version: number; readonly position: vscode.Position } | undefined;

  constructor(private readonly deps: AdapterDeps) {}

  /** The rest of a partly shown suggestion is ready: ask again (a cache hit) if nothing moved. */
  showRest(): void {
    const at = this.partialAt;
    this.partialAt = undefined;
    const editor = vscode.window.activeTextEditor;
    if (!at || editor?.document !== at.document || at.document.version !== at.version || !editor.selection.active.isEqual(at.position)) return;
    // The editor keeps a suggestion it shows when a new answer comes for the same place, so Tab
    // would take the first line only: hide it, then ask again for the whole one.
    void (async () => {
      await vscode.commands.executeCommand("editor.action.inlineSuggest.hide");
      await vscode.commands.executeCommand("editor.action.inlineSuggest.trigger");
    })();
  }

  async provideInlineCompletionItems(
    document: vscode.TextDocument,
    position: vscode.Position,
    context: vscode.InlineCompletionContext,
    token: vscode.CancellationToken,
  ): Promise<vscode.InlineCompletionItem[] | undefined> {
    try {
      return await this.provide(document, position, context, token);
    } catch (error) {
      // The editor would only log it where the user never looks, and may stop asking this provider.
      this.deps.fail(error);
      return undefined;
    }
  }

  private async provide(
    document: vscode.TextDocument,
    position: vscode.Position,
    context: vscode.InlineCompletionContext,
    token: vscode.CancellationToken,
  ): Promise<vscode.InlineCompletionItem[] | undefined> {
    const manual = context.triggerKind === vscode.InlineCompletionTriggerKind.Invoke;
    // The toggle and the language list stop what comes by itself, not what the user asks for.
    const settings = this.deps.settings();
    if (!manual && (!settings.enabled || settings.disabledLanguages.includes(document.languageId) || this.deps.isSensitive?.(document.uri))) return undefined;
    // With the suggest widget open, the ghost text must extend its selected item, over its range.
    const selected = context.selectedCompletionInfo;
    const start = selected?.range.start ?? position;
    const linked = new LinkedAbortController(token);
    try {
      const editedAt = this.deps.editedAt?.(document);
      const input = { ...toInput(document, start, position, selected?.text ?? "", manual), ...(editedAt !== undefined ? { editedAt } : {}) };
      const answered = await this.deps.complete(input, linked.signal);
      // Cancelled while the answer came: the editor shows nothing, so nothing is reported shown.
      const outcome: CompletionOutcome = answered.kind === "shown" && token.isCancellationRequested ? { kind: "cancelled", latencyMs: answered.latencyMs } : answered;
      this.deps.report(outcome, document);
      const partial = outcome.kind === "shown" && outcome.partial === true;
      this.partialAt = partial ? { document, version: document.version, position } : undefined;
      if (outcome.kind !== "shown" || token.isCancellationRequested) return undefined;
      const text = document.eol === vscode.EndOfLine.CRLF ? outcome.text.replace(/\n/g, "\r\n") : outcome.text;
      // Over the closers the editor auto-inserted after the cursor, so that accepting replaces them.
      const end = position.translate(0, Math.min(outcome.replace, document.lineAt(position.line).text.length - position.character));
      return [new vscode.InlineCompletionItem((selected?.text ?? "") + text, new vscode.Range(start, end))];
    } finally {
      linked.dispose();
    }
  }
}

/** The pipeline's view of a cursor: text before `start` (plus what the suggest widget would insert) and after `end`. */
export function toInput(document: vscode.TextDocument, start: vscode.Position, end: vscode.Position, inserted: string, manual: boolean): CompletionInput {
  const cutOffset = prefixStartOffset(document.offsetAt(start));
  const endOffset = document.offsetAt(end);
  const suffixEnd = document.positionAt(endOffset + maxSuffixChars);
  // The offsets may fall inside an emoji: leave out its half (see surrogates).
  const before = document.getText(new vscode.Range(document.positionAt(cutOffset), start));
  const after = document.getText(new vscode.Range(end, suffixEnd));
  const prefixOffset = cutOffset + (cutOffset > 0 ? splitHalves(before).start : 0);
  const afterEnd = after.length - splitHalves(after).end;
  const eol = /\r\n/g;
  const editor = vscode.window.visibleTextEditors.find((e) => e.document === document);
  const tabSize = editor?.options.tabSize;
  // A notebook's cell is in its notebook's folder, after the code cells above it.
  const file = fileUriOf(document.uri);
  const folder = vscode.workspace.getWorkspaceFolder(file);
  const prefix = withEarlierCells(earlierCells(document), (before.slice(prefixOffset - cutOffset) + inserted).replace(eol, "\n"), prefixOffset);
  return {
    uri: document.uri.toString(),
    path: vscode.workspace.asRelativePath(file),
    ...(folder ? { workspace: folder.name } : {}),
    languageId: document.languageId,
    ...prefix,
    suffix: after.slice(0, afterEnd).replace(eol, "\n"),
    // positionAt clamps to the document's end: anything short of it was cut.
    suffixCut: !suffixEnd.isEqual(document.lineAt(document.lineCount - 1).range.end),
    indent: {
      insertSpaces: editor?.options.insertSpaces !== false,
      tabSize: typeof tabSize === "number" ? tabSize : 4,
    },
    manual,
  };
}

/** The text of the code cells above a notebook cell, in its language; none for any other document. */
function earlierCells(document: vscode.TextDocument): string[] {
  const at = notebookCellOf(document);
  if (at === undefined) return [];
  return at.notebook
    .getCells(new vscode.NotebookRange(0, at.cell.index))
    .filter((c) => c.kind === vscode.NotebookCellKind.Code && c.document.languageId === document.languageId)
    .map((c) => c.document.getText());
}
