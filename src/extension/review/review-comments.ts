import * as vscode from "vscode";
import { fenceFor } from "../../core/chat/prompt";
import { joinBlock } from "../../core/edit/block-text";
import type { Severity } from "../../core/review/findings";
import { planFix, type FixPlan } from "../../core/review/plan-fix";
import { escapeText, inertMarkdown } from "../../core/review/review-prompt";
import type { PlacedFinding } from "../../core/review/review-scope";
import { BlockRegion } from "../edit/block-region";
import { blockOf } from "../edit/edit-target";
import { setContext } from "../set-context";

export const reviewControllerId = "wisp.review";
/** A thread's contextValue: the header's Apply Fix shows only on threads with a fix. */
const withFix = "wisp-finding-fix";
const withoutFix = "wisp-finding";

interface ThreadFinding {
  readonly placed: PlacedFinding;
  /** 0-based line where the finding's lines were when it was shown. */
  readonly line: number;
  /** What Apply Fix writes, or why it writes nothing; undefined without a fix. */
  readonly fix: FixPlan | undefined;
}

/** What the extension's own tests read of a review's comments. */
export interface ReviewThreadView {
  readonly uri: string;
  /** 0-based, inclusive. */
  readonly startLine: number;
  readonly endLine: number;
  readonly label: string;
  readonly hasFix: boolean;
  readonly body: string;
  readonly isTrusted: boolean;
  readonly supportHtml: boolean;
}

const severityLabels: Record<Severity, string> = { error: "Error", warning: "Warning", info: "Note" };

/**
 * A review's findings as comment threads in the editor (the Comments API): the severity in the
 * thread's label, the explanation as untrusted markdown, the proposed fix as a code block, and
 * Apply Fix and Discard on the thread's header.
 */
export class ReviewComments implements vscode.Disposable {
  private readonly controller = vscode.comments.createCommentController(reviewControllerId, "Wisp Review");
  private readonly threads = new Map<vscode.CommentThread, ThreadFinding>();

  show(findings: readonly { readonly uri: vscode.Uri; readonly placed: PlacedFinding; readonly languageId: string }[]): void {
    this.clear();
    for (const { uri, placed, languageId } of findings) {
      const { finding } = placed;
      const fix = finding.fix === undefined ? undefined : planFix(finding.fix, placed.original, placed.sent);
      const range = new vscode.Range(finding.line - 1, 0, finding.endLine - 1, 0);
      const thread = this.controller.createCommentThread(uri, range, [comment(placed, fix, languageId)]);
      thread.label = `Wisp: ${severityLabels[finding.severity]}`;
      // A fix refused for a masked secret shows as text only: a button that can only fail helps no one.
      thread.contextValue = fix?.kind === "apply" ? withFix : withoutFix;
      thread.canReply = false;
      thread.collapsibleState = vscode.CommentThreadCollapsibleState.Expanded;
      this.threads.set(thread, { placed, line: finding.line - 1, fix });
    }
    void this.setContext();
  }

  /**
   * Puts the fix in place of the finding's lines as one undo step, byte for byte in the file's
   * line endings, after checking the lines are still those reviewed; the thread then goes.
   */
  async applyFix(arg: unknown): Promise<string> {
    const [thread, found] = this.threadFor(arg);
    const { fix } = found;
    if (fix === undefined) throw new Error("This finding proposes no fix.");
    if (fix.kind === "refused") throw new Error(fix.reason);
    const document = await vscode.workspace.openTextDocument(thread.uri);
    const startLine = locate(document, found.line, found.placed.original);
    if (startLine === undefined) throw new Error("The lines of this finding changed since the review: the fix was not applied. Run the review again.");
    const editor = await vscode.window.showTextDocument(document, { preserveFocus: false });
    const target = { document, startLine, endLine: startLine + found.placed.original.length - 1 };
    const block = blockOf(target);
    const { lines } = fix;
    const done = await new BlockRegion(document, startLine, block).replace(joinBlock({ ...block, lines }), lines.length, { undoStopBefore: true, undoStopAfter: true });
    if (!done) throw new Error("The editor did not take the fix (is the file read-only?).");
    editor.selection = new vscode.Selection(startLine, 0, startLine, 0);
    this.remove(thread);
    return `Applied the fix to lines ${startLine + 1}-${startLine + lines.length} of ${vscode.workspace.asRelativePath(thread.uri, false)}.`;
  }

  discard(arg: unknown): void {
    this.remove(this.threadFor(arg)[0]);
  }

  clear(): void {
    this.dropThreads();
    void this.setContext();
  }

  views(): ReviewThreadView[] {
    return [...this.threads.keys()].map((thread) => {
      const body = thread.comments[0]!.body as vscode.MarkdownString;
      return {
        uri: thread.uri.toString(),
        startLine: thread.range!.start.line,
        endLine: thread.range!.end.line,
        label: thread.label ?? "",
        hasFix: thread.contextValue === withFix,
        body: body.value,
        isTrusted: body.isTrusted === true || typeof body.isTrusted === "object",
        supportHtml: body.supportHtml === true,
      };
    });
  }

  // No context key set here: the editor refuses commands while the window closes, and logs that as an error.
  dispose(): void {
    this.dropThreads();
    this.controller.dispose();
  }

  private dropThreads(): void {
    for (const thread of this.threads.keys()) thread.dispose();
    this.threads.clear();
  }

  private remove(thread: vscode.CommentThread): void {
    this.threads.delete(thread);
    thread.dispose();
    void this.setContext();
  }

  /** The thread a menu passes, else the one at the active editor's cursor. */
  private threadFor(arg: unknown): [vscode.CommentThread, ThreadFinding] {
    const given = [...this.threads.entries()].find(([thread]) => thread === arg);
    if (given) return given;
    const editor = vscode.window.activeTextEditor;
    const line = editor?.selection.active.line;
    const atCursor = editor && [...this.threads.entries()].find(([thread]) => thread.uri.toString() === editor.document.uri.toString() && thread.range !== undefined && line! >= thread.range.start.line && line! <= thread.range.end.line);
    if (atCursor) return atCursor;
    throw new Error("There is no Wisp review comment here: put the cursor on a finding's lines, or use the buttons on its comment.");
  }

  private setContext(): Thenable<unknown> {
    return setContext("wisp.review.hasFindings", this.threads.size > 0);
  }
}

function comment(placed: PlacedFinding, plan: FixPlan | undefined, languageId: string): vscode.Comment {
  const { finding } = placed;
  // Untrusted: no command links run, no HTML renders, no theme icons; the text is made inert as well.
  const body = new vscode.MarkdownString(undefined, false);
  body.isTrusted = false;
  body.supportHtml = false;
  body.appendMarkdown(inertMarkdown(finding.comment));
  if (finding.fix !== undefined) {
    const lines = finding.endLine > finding.line ? `lines ${finding.line}-${finding.endLine}` : `line ${finding.line}`;
    const how = plan?.kind === "refused" ? "not applied by Wisp" : "**Apply Fix** puts it in, one undo step";
    body.appendMarkdown(`\n\nProposed fix for ${lines} (${how}):\n`);
    // A fence longer than any backtick run in the fix: the fix cannot close it and go on as markdown.
    const fence = fenceFor(finding.fix);
    body.appendMarkdown(`${fence}${languageId}\n${finding.fix.replace(/\n$/, "")}\n${fence}\n`);
    if (plan?.kind === "refused") body.appendMarkdown(`\n${escapeText(plan.reason)}\n`);
    else if (plan?.restored) body.appendMarkdown(`\n${escapeText("[masked] stands for a secret Wisp did not send: Apply Fix keeps the file's own value there.")}\n`);
  }
  return { body, mode: vscode.CommentMode.Preview, author: { name: "Wisp" } };
}

/** Where the reviewed lines are now: where they were, else the nearest place that has them. */
function locate(document: vscode.TextDocument, line: number, original: readonly string[]): number | undefined {
  const at = (start: number) => start >= 0 && start + original.length <= document.lineCount && original.every((text, i) => document.lineAt(start + i).text === text);
  if (at(line)) return line;
  for (let distance = 1; distance < document.lineCount; distance++) {
    if (at(line - distance)) return line - distance;
    if (at(line + distance)) return line + distance;
  }
  return undefined;
}
