import * as vscode from "vscode";
import { editMessages, type EditRequestInput } from "../../core/edit/edit-prompt";
import type { BlockText } from "../../core/edit/block-text";
import { codeAsGiven, codeOfReply, cutReplyReason, type CodeReader } from "../../core/edit/reply-code";
import type { IndentStyle } from "../../core/edit/reindent";
import { ChatModelList } from "../chat/chat-models";
import { folderNames, workspacePath } from "../context/workspace-path";
import type { ClientFactory } from "../client-factory";
import { editorOf } from "../editor-of";
import type { Logger } from "../logger";
import type { Settings } from "../settings";
import { EditDecorations } from "./edit-decorations";
import { reportEditError } from "./edit-errors";
import { EditSession, type EditEnd, type EditState } from "./edit-session";
import { requestInput, type EditTarget } from "./edit-target";
import { FollowedTarget } from "./followed-target";
import { readOnlyKind } from "./read-only";
import { ReviewCopies, reviewScheme } from "./review-copies";
import { ReviewCopy, type MirroredChange } from "./review-copy";
import { instructionsFor, type ScopedInstructions } from "../../core/customization/scoped-instructions";
import { instructionsParts } from "../../core/customization/paths-in-play";
import { setContext } from "../set-context";
import { editorIndent } from "./editor-indent";

export interface EditControllerDeps {
  readonly settings: Settings;
  readonly clients: ClientFactory;
  readonly log: Logger;
  /** Scoped instructions: those whose applyTo matches the edited file go with its request. */
  readonly instructions?: { instructions(): readonly ScopedInstructions[] };
}

/** What the extension's own tests and benchmark read about the edits. */
export interface EditProbe {
  /** `uri` is the file's, `review` its review copy's, where the proposal is shown. */
  sessions(): { id: number; uri: string; review: string; state: EditState; startLine: number; hunks: number; kinds: string[] }[];
  /** Milliseconds from a streamed line's arrival to the editor showing it, oldest first (bounded). */
  latencies(): readonly number[];
  /** The last error message shown for an edit. */
  lastError(): string | undefined;
}

/** Where the proposal comes from: the chat model given an instruction, or code already written (chat's Apply). */
export type EditSource = { readonly instruction: string } | { readonly code: string };

const keptLatencies = 20_000;

type Answer = (signal: AbortSignal) => AsyncIterable<{ content: string; finishReason?: string }>;

/** Code already written, as an answer of one piece. */
const given = (code: string): Answer =>
  async function* () {
    yield { content: code };
  };

/**
 * The edits under way, one per document at most: starts them, feeds them the answer, ends them on
 * the user's word, keeps the decorations and the context keys for the keyboard in step.
 */
export class EditController implements vscode.Disposable {
  private readonly sessions = new Set<EditSession>();
  /** Files whose edit is starting (its request asked, its review copy opened): a second edit of them is refused. */
  private readonly opening = new Set<vscode.TextDocument>();
  /** Where the review copies live (registered as a file system by registerEdit). */
  readonly copies = new ReviewCopies();
  private readonly decorations = new EditDecorations();
  private readonly changedEmitter = new vscode.EventEmitter<void>();
  private readonly editedEmitter = new vscode.EventEmitter<void>();
  private readonly endedEmitter = new vscode.EventEmitter<{ readonly file: vscode.TextDocument; readonly end: EditEnd | undefined }>();
  private readonly models: ChatModelList;
  private readonly subscriptions: vscode.Disposable[];
  private readonly shownAfter: number[] = [];
  private lastId = 0;
  private errorShown: string | undefined;
  private controls = "";

  /** Fires when any session changes (CodeLens listen). */
  readonly onDidChange = this.changedEmitter.event;
  /** Fires on every change of a session: its lines, its decisions, its end (the diff view listens). */
  readonly onDidEdit = this.editedEmitter.event;
  /** Fires when an edit ended, with the file it edited and how it ended (accepted, rejected, ...). */
  readonly onDidEnd = this.endedEmitter.event;

  constructor(private readonly deps: EditControllerDeps) {
    this.models = new ChatModelList(deps.clients, deps.log);
    this.subscriptions = [
      this.copies,
      this.decorations,
      this.changedEmitter,
      this.editedEmitter,
      this.endedEmitter,
      vscode.workspace.onDidChangeTextDocument((event) => this.documentChanged(event)),
      vscode.window.onDidChangeVisibleTextEditors(() => {
        for (const session of this.sessions) session.refresh();
        this.redrawAll();
      }),
      vscode.window.onDidChangeActiveTextEditor(() => this.updateContext()),
      vscode.workspace.onDidCloseTextDocument((document) => {
        if (document.uri.scheme === reviewScheme) this.copies.closed(document.uri);
        for (const session of this.sessionsEditing(document)) void this.finish(session, session.cancel());
      }),
      // Closing the copy's last tab is a Reject; its document may stay open a while after.
      vscode.window.tabGroups.onDidChangeTabs(({ closed }) => {
        if (closed.length === 0) return;
        const shown = new Set(vscode.window.tabGroups.all.flatMap((group) => group.tabs).map((tab) => (tab.input instanceof vscode.TabInputText ? tab.input.uri.toString() : "")));
        for (const session of this.sessions) {
          if (session.state !== "ended" && !shown.has(session.document.uri.toString())) void this.finish(session, session.cancel());
        }
      }),
      deps.settings.onDidChange(() => this.models.invalidate()),
    ];
  }

  readonly probe: EditProbe = {
    sessions: () =>
      [...this.sessions].map((s) => ({ id: s.id, uri: s.file.uri.toString(), review: s.document.uri.toString(), state: s.state, startLine: s.region.startLine, hunks: s.hunks.length, kinds: s.shown.map((l) => l.kind) })),
    latencies: () => this.shownAfter,
    lastError: () => this.errorShown,
  };

  /** The sessions shown in `document` (a review copy). */
  sessionsOf(document: vscode.TextDocument): EditSession[] {
    return [...this.sessions].filter((s) => s.document === document);
  }

  /** The sessions editing `document`, as the file or as its review copy. */
  sessionsEditing(document: vscode.TextDocument): EditSession[] {
    return [...this.sessions].filter((s) => s.document === document || s.file === document);
  }

  /** The session a command means: by id (CodeLens), else the one in the active editor. */
  find(id?: unknown): EditSession | undefined {
    if (typeof id === "number") return [...this.sessions].find((s) => s.id === id);
    const document = vscode.window.activeTextEditor?.document;
    return document === undefined ? undefined : this.sessionsEditing(document)[0];
  }

  /**
   * Runs an edit of `target` to the end of its streaming; the session then waits for the user's
   * review. Failures put the original back and show one message with a way out.
   */
  async start(target: EditTarget, source: EditSource): Promise<void> {
    const followed = new FollowedTarget(target);
    try {
      await this.startFollowed(followed, source);
    } finally {
      followed.dispose();
    }
  }

  private async startFollowed(followed: FollowedTarget, source: EditSource): Promise<void> {
    const target = followed.original;
    // Read before the first wait: the model is asked about the lines the user chose, wherever they move meanwhile.
    const input = "instruction" in source ? requestInput(target, source.instruction) : undefined;
    // Refused before the model is asked: its proposal could be reviewed but never written.
    const readOnly = await readOnlyKind(target.document.uri);
    if (readOnly === "view") {
      const name = target.document.uri.path.split("/").pop() || target.document.uri.toString();
      throw new Error(`${name} (${target.document.uri.scheme}:) cannot be edited: it is a read-only view, not a file. Open the file itself to edit it.`);
    }
    if (readOnly === "file") {
      throw new Error(`${workspacePath(target.document.uri)} is read-only (files.readonlyInclude, or its permissions): the edit would have nowhere to go.`);
    }
    if (this.sessionsEditing(target.document).length > 0 || this.opening.has(target.document)) {
      throw new Error("An edit is already open in this file: accept it (Ctrl+Enter) or reject it (Escape) first.");
    }
    const editor = editorOf(target.document);
    const indent = editorIndent(editor?.options);
    // Reserved before the first await: a second edit of this file started meanwhile (Apply twice) is refused.
    this.opening.add(target.document);
    let session: EditSession | undefined;
    try {
      // Asked before the copy opens: a missing key or model fails without a tab opening and closing.
      const answer = "code" in source ? given(source.code) : await this.request(target, input!);
      const now = followed.current();
      if (now === undefined) {
        this.opening.delete(target.document);
        this.errorShown = "the lines to edit were changed while the edit was starting, so it did not start: select them again and retry.";
        void vscode.window.showWarningMessage(`Wisp: ${this.errorShown}`);
        return;
      }
      session = await this.open(now, followed.block, indent, "code" in source ? codeAsGiven : codeOfReply);
      // The session holds the file from here.
      this.opening.delete(target.document);
      let reply = "";
      let finishReason: string | undefined;
      for await (const delta of answer(session.signal)) {
        session.receive(delta.content);
        reply += delta.content;
        finishReason = delta.finishReason ?? finishReason;
      }
      const cut = "code" in source ? undefined : cutReplyReason(reply, finishReason);
      if (cut !== undefined) throw new Error(cut);
      await session.complete();
    } catch (error) {
      if (session === undefined) this.opening.delete(target.document);
      if (session?.signal.aborted) return;
      if (session) await this.finish(session, session.cancel("failed"));
      this.errorShown = reportEditError(error, { baseUrl: this.deps.settings.value.baseUrl, log: this.deps.log, retry: () => this.start(followed.current() ?? target, source) });
      return;
    }
    if (session.state === "reviewing" && session.hunks.length === 0) {
      await this.finish(session, session.cancel("unchanged"));
      void vscode.window.showInformationMessage("Wisp: the answer changes nothing in these lines.");
    }
  }

  /** Ends a session the way `ending` does, then forgets it. */
  async finish(session: EditSession, ending: Promise<EditEnd | undefined>): Promise<EditEnd | undefined> {
    const end = await ending;
    if (session.state === "ended" && this.sessions.delete(session)) {
      this.deps.log.info(`edit: ${end ?? "ended"} (${session.file.uri.fsPath}, line ${session.region.startLine + 1})`);
      this.changed(session.document);
      this.endedEmitter.fire({ file: session.file, end });
    }
    return end;
  }

  dispose(): void {
    for (const session of this.sessions) void session.cancel();
    this.sessions.clear();
    for (const subscription of this.subscriptions) subscription.dispose();
  }

  /** Opens the review copy of the target's file and starts a session in it on `block`, the target's lines. */
  private async open(target: EditTarget, block: BlockText, indent: Omit<IndentStyle, "target">, readCode: CodeReader): Promise<EditSession> {
    const id = ++this.lastId;
    const editor = editorOf(target.document);
    const copy = await ReviewCopy.open(this.copies, target.document, editor, id);
    const session = new EditSession(id, copy, target.startLine, block, indent, {
      changed: () => this.changed(session.document),
      shown: (ms) => {
        this.shownAfter.push(ms);
        if (this.shownAfter.length > keptLatencies) this.shownAfter.shift();
      },
    }, readCode);
    this.sessions.add(session);
    this.errorShown = undefined;
    this.changed(session.document);
    return session;
  }

  /** The chat request for an instruction, ready to stream once the session has its signal. */
  private async request(target: EditTarget, input: EditRequestInput): Promise<Answer> {
    const { settings, clients, log } = this.deps;
    const client = await clients.create();
    client.checkReady();
    const chat = settings.value.chat;
    const model = await this.models.choose(chat.model, settings.value.baseUrl);
    const messages = editMessages(input);
    // The file by its chat path: with several folders, its folder's instructions only.
    const scoped = instructionsParts(instructionsFor(this.deps.instructions?.instructions() ?? [], [workspacePath(target.document.uri)], folderNames()));
    if (scoped.length > 0) messages[0] = { ...messages[0]!, content: [messages[0]!.content, ...scoped].join("\n\n") };
    log.info(`edit: ${model}, lines ${input.startLine + 1}-${input.startLine + input.lines.length} of ${target.document.uri.fsPath}`);
    const body = { model, messages, temperature: chat.temperature, max_tokens: chat.maxTokens, stream_options: { include_usage: true } };
    return (signal) => client.streamChat(body, signal);
  }

  private documentChanged(event: vscode.TextDocumentChangeEvent): void {
    for (const session of this.sessionsEditing(event.document)) {
      if (session.state === "ended" || event.contentChanges.length === 0) continue;
      if (event.document === session.file) {
        // The copy's text is the file's around the edited lines: the file changed by something else no longer matches it.
        if (session.copy.owns()) continue;
        void this.finish(session, session.cancel());
        void vscode.window.showWarningMessage("Wisp: the file was changed outside the edit, so the edit stopped; the file keeps that change.");
        continue;
      }
      const saveMade = session.copy.saveMade(event);
      const outside: MirroredChange[] = [];
      const change = session.region.follow(event, (range, text, index) => outside.push({ range, text, saveMade: saveMade[index] }), saveMade);
      session.copy.mirror(outside);
      if (change === "moved") this.changed(event.document);
      if (change === "inside") {
        void this.finish(session, session.cancel());
        // A formatter's save participant may run before or after onWillSaveTextDocument: both causes are named.
        void vscode.window.showWarningMessage(
          "Wisp: the lines being edited were changed in the review tab (by typing, or by a formatter as it was saved: Ctrl+S there saves without formatting), so the edit stopped and its lines are back as they were.",
        );
      }
    }
  }

  private changed(document: vscode.TextDocument): void {
    const sessions = this.sessionsOf(document).filter((s) => s.state !== "ended");
    this.decorations.draw(document, sessions.map((s) => s.decorated()));
    this.editedEmitter.fire();
    // CodeLens and context keys move only with a state, the block's start or the hunks, not with each streamed line.
    const controls = JSON.stringify([...this.sessions].map((s) => [s.id, s.state, s.region.startLine, s.state === "reviewing" ? [...s.hunkLines()] : []]));
    if (controls === this.controls) return;
    this.controls = controls;
    this.updateContext();
    this.changedEmitter.fire();
  }

  private redrawAll(): void {
    const documents = new Set([...this.sessions].map((s) => s.document));
    for (const editor of vscode.window.visibleTextEditors) documents.add(editor.document);
    for (const document of documents) this.decorations.draw(document, this.sessionsOf(document).map((s) => s.decorated()));
  }

  /** Context keys for the keys: Ctrl+Enter/Tab accept and Escape reject only while the active editor has an edit. */
  private updateContext(): void {
    const session = this.find();
    void setContext("wisp.edit.streaming", session?.state === "streaming");
    void setContext("wisp.edit.reviewing", session?.state === "reviewing");
  }
}
