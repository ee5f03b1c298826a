import * as vscode from "vscode";
import { randomUUID } from "node:crypto";
import { localAddress } from "../../core/net/local-address";
import { chatSnippets, planChatRequest, type ChatRequestBody, type ChatSetup } from "../../core/chat/chat-request";
import { chosenChatModel } from "../../core/chat/chat-models";
import { isEmbeddedModel, servesOnlyEmbeddedModels } from "../../core/onboarding/embedded-models";
import { ChatSession, type ChatSessionEvents } from "../../core/chat/chat-session";
import type { ChatStore } from "../../core/chat/chat-store";
import { DeltaQueue } from "../../core/chat/delta-queue";
import { answerText } from "../../core/chat/thinking";
import { viewChat } from "../../core/chat/view-chat";
import type { ChatViewMemory } from "../../core/chat/view-memory";
import { lastAnswer, lastQuestion, withUserTurn, type AssistantTurn, type Chat } from "../../core/chat/conversation";
import type { HostMessage, Notice, ViewMessage, ViewState } from "../../core/chat/protocol";
import type { ClientFactory } from "../client-factory";
import type { ChatContext } from "../context/chat-context";
import type { AgentController } from "../agent/agent-controller";
import { agentMessage, isAgentMessage } from "../agent/agent-messages";
import { workspaceFile } from "../context/workspace-file";
import type { Logger } from "../logger";
import type { Settings } from "../settings";
import { ChatModelList } from "./chat-models";
import type { CodeActions } from "./code-actions";
import type { ChatCustomization } from "../customization/chat-customization";

/** When neither the server nor wisp.chat.contextTokens says the context window. */
const assumedContextTokens = 4096;

export interface ChatPanelDeps {
  readonly store: ChatStore;
  readonly views: ChatViewMemory;
  readonly settings: Settings;
  readonly clients: ClientFactory;
  readonly codeActions: CodeActions;
  readonly context: ChatContext;
  readonly log: Logger;
  /**
   * Posts to the webview when it is up (dropped otherwise: `ready` brings it up to date);
   * resolves once delivered.
   */
  readonly post: (message: HostMessage) => PromiseLike<unknown>;
  readonly newId: () => string;
  /** Agent mode, built with the panel's events and chat setup. */
  readonly agent: (events: ChatSessionEvents, chatSetup: () => Promise<ChatSetup>) => AgentController;
  /** `/` commands, prompt files, agents of the switch, handoffs, compaction: built with the panel. */
  readonly customization: (panel: ChatPanel, events: ChatSessionEvents) => ChatCustomization;
  /** Every answer (or agent task) that ended, however it ended. */
  readonly onAnswered?: (turn: AssistantTurn) => void;
}

/**
 * The chat panel's logic on the extension side: keeps the session, the store and the view in
 * step, and carries out what the user does in the view.
 */
export class ChatPanel implements vscode.Disposable {
  readonly session: ChatSession;
  readonly models: ChatModelList;
  readonly agent: AgentController;
  readonly customization: ChatCustomization;
  private notice: Notice | undefined;
  private noticeId = 0;
  /** The view's page state outlives this activation: its notice ids are told apart by this. */
  private readonly noticeSession = randomUUID();
  private focusOnReady = false;
  private readonly deltas: DeltaQueue;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly deps: ChatPanelDeps) {
    this.models = new ChatModelList(deps.clients, deps.log);
    this.deltas = new DeltaQueue((delta) => deps.post({ type: "delta", ...delta }));
    const events: ChatSessionEvents = {
      changed: (chatId) => this.postStateIfActive(chatId),
      delta: (chatId, turnId, offset, text) => {
        if (chatId === deps.store.active().id) this.deltas.push({ chatId, turnId, offset, text });
      },
      ended: (chatId, turn) => this.ended(chatId, turn),
      notice: (text) => this.showNotice(text),
    };
    this.session = new ChatSession({ store: deps.store, stream: (body, signal) => this.stream(body, signal), setup: (chat) => this.setup(chat), newId: deps.newId, now: () => Date.now(), events });
    this.agent = deps.agent(events, () => this.setup());
    this.customization = deps.customization(this, events);
    // Snippets are found as the draft changes; a draft written while the index was empty (being
    // built, or off) gets them, or loses them, when the index is ready or turned off.
    this.disposables.push(
      // Agent mode's "off in Restricted Mode" goes as soon as the folder is trusted (no reload).
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.postState()),
      deps.context.index.onDidChangeState((state) => {
        if (state !== "indexing") deps.context.refreshFound(this.session, deps.views.get(deps.store.active().id).draft);
      }),
    );
  }

  /** The full state the view draws. */
  state(): ViewState {
    const { store, settings } = this.deps;
    const chat = store.active();
    const setting = settings.value.chat.model;
    const listed = this.models.chat.map((m) => m.id);
    const model = chosenChatModel(setting, this.models.all);
    const { contextTokens, contextSource } = this.contextFor(model);
    const agentBlocked = this.agent.blocked();
    const checkpoints = this.agent.checkpoints.view(chat);
    return {
      chats: store.list(),
      chat,
      streaming: this.session.isStreaming(chat.id) || this.agent.isRunning(chat.id) || this.customization.isBusy(chat.id),
      models: setting && !listed.includes(setting) ? [setting, ...listed] : listed,
      modelsListed: this.models.loaded,
      model,
      ...(this.models.error ? { modelsError: this.models.error } : {}),
      setup: { temperature: settings.value.chat.temperature, maxTokens: settings.value.chat.maxTokens, contextTokens, contextSource },
      serverIsLocal: this.serverIsLocal(),
      view: this.deps.views.get(chat.id),
      ...(this.notice ? { notice: this.notice } : {}),
      mode: this.agent.mode,
      ...(agentBlocked ? { agentBlocked } : {}),
      ...(checkpoints ? { checkpoints } : {}),
      ...this.customization.view(),
      // A model set since the list was read (a download followed) counts before the next listing.
      ...(servesOnlyEmbeddedModels(this.models.all) && (setting === "" || isEmbeddedModel(setting)) ? { embeddedOnly: true } : {}),
    };
  }

  /** The view (re)started: send it everything; list the models if not known yet. */
  ready(): void {
    this.postState();
    if (this.focusOnReady) void this.deps.post({ type: "focusPrompt" });
    this.focusOnReady = false;
    if (!this.models.loaded) void this.models.refresh().then(() => this.postState());
  }

  /** Focus the prompt box now, or as soon as the view is up. */
  focusPrompt(): void {
    this.focusOnReady = true;
    void this.deps.post({ type: "focusPrompt" });
  }

  /** Puts text in a chat's prompt box: kept with its view state too, so a hidden or other chat's view gets it when shown. */
  async restoreDraft(chatId: string, text: string): Promise<void> {
    await this.deps.views.set(chatId, { ...this.deps.views.get(chatId), draft: text });
    if (this.deps.store.active().id === chatId) void this.deps.post({ type: "setDraft", text });
  }

  showNotice(text: string): void {
    this.notice = { id: ++this.noticeId, session: this.noticeSession, text };
    this.postState();
  }

  postState(): void {
    const state = this.state();
    void this.deps.post({ type: "state", state: { ...state, chat: viewChat(state.chat) } });
  }

  async message(message: ViewMessage): Promise<void> {
    const { store, codeActions } = this.deps;
    // `/` commands, sends in agent mode, handoffs and the switch's agents; the rest goes on below.
    if (await this.customization.message(message)) return;
    if (isAgentMessage(message)) {
      const notice = await agentMessage(this.agent, message);
      if (notice) this.showNotice(notice);
      else this.postState();
      return;
    }
    switch (message.type) {
      case "ready":
        return this.ready();
      case "send":
        return this.ask(message.text);
      case "stop":
        this.agent.stop(store.active().id);
        return this.session.stop(store.active().id);
      case "regenerate":
        await this.session.regenerate();
        return;
      case "copyAnswer": {
        const turn = store.active().turns.find((t) => t.id === message.turnId);
        // Said as Copy on a code block says it: else nothing tells a screen reader user it worked.
        if (turn) await this.copyText(answerText(turn.text), "Copied the answer.");
        return;
      }
      case "codeAction":
        return this.showNotice(await codeActions.run(message.action, message.code, message.language, message.path));
      case "removeAttachment": {
        const removed = this.session.pending().find((a) => a.id === message.id);
        if (removed) this.deps.context.removed(removed);
        return this.session.detach(message.id);
      }
      case "mentionQuery": {
        const items = await this.deps.context.mentions.list(message.kind, message.query);
        void this.deps.post({ type: "mentionItems", requestId: message.requestId, items });
        return;
      }
      case "addMention":
        for (const attachment of await this.deps.context.mentions.resolve(message.id)) this.session.attach(attachment);
        return;
      case "openFile":
        return this.openFile(message.path, message.line);
      case "newChat":
        return this.newChat();
      case "switchChat":
        if (store.activate(message.id)) this.postState();
        return;
      case "renameChat":
        return this.rename(message.id);
      case "deleteChat":
        return this.delete(message.id);
      case "selectModel":
        return this.selectModel(message.model);
      case "refreshModels":
        return this.refreshModels();
      case "viewAsCode":
        return this.viewAsCode(message.draft);
      case "copyText":
        return this.copyText(message.text);
      case "errorAction":
        return this.errorAction(message.action);
      case "viewState":
        if (!store.get(message.chatId)) return;
        if (message.chatId === store.active().id) this.deps.context.refreshFound(this.session, message.draft);
        await this.deps.views.set(message.chatId, { scrollTop: message.scrollTop, draft: message.draft });
        void this.deps.post({ type: "viewSaved", chatId: message.chatId, scrollTop: message.scrollTop });
        return;
    }
  }

  /** Sends a message in Ask mode, with the snippets found for it. */
  async ask(text: string): Promise<void> {
    // The draft may have changed since the last look: the snippets sent are the ones for this text.
    this.deps.context.refreshFound(this.session, text);
    const sent = this.session.send(text);
    this.deps.context.sent();
    await sent;
  }

  newChat(): void {
    const active = this.deps.store.active();
    // An empty chat is reused rather than piled up.
    if (active.turns.length > 0 || active.pending.length > 0) this.deps.store.create();
    this.postState();
  }

  /** The exact request for this chat (plus the draft, if any) as curl, TypeScript and Python. */
  async viewAsCode(draft: string): Promise<void> {
    const chat = this.deps.store.active();
    const asking = draft.trim() !== "" || chat.pending.length > 0;
    const turns = asking
      ? withUserTurn(chat, { id: "draft", role: "user", text: draft, attachments: chat.pending, createdAt: Date.now() }).turns
      : lastQuestion(chat)
        ? chat.turns.slice(0, chat.turns.lastIndexOf(lastQuestion(chat)!) + 1)
        : withUserTurn(chat, { id: "draft", role: "user", text: "Hello!", attachments: [], createdAt: Date.now() }).turns;
    let setup: ChatSetup;
    try {
      setup = await this.setup({ ...chat, turns });
    } catch (error) {
      void this.deps.post({ type: "snippets", snippets: [], note: `No request to show: ${(error as Error).message}` });
      return;
    }
    const planned = planChatRequest(setup, turns);
    const what = asking ? "sending the message being typed" : lastQuestion(chat) ? "answering the last question again" : "an example first message";
    const note = `The request Wisp makes for this chat, ${what}. The key is read from the WISP_API_KEY environment variable.`;
    void this.deps.post({ type: "snippets", snippets: chatSnippets(planned.body, this.deps.settings.value.baseUrl), note });
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    this.customization.dispose();
    this.session.shutdown();
    this.agent.dispose();
    void this.deps.store.flush();
  }

  /**
   * Model, prompt and limits for a request, from the settings and the server's model list; for a
   * chat's question, with the project's rules and what its files in play and a prompt file add.
   */
  async setup(forChat?: Chat): Promise<ChatSetup> {
    const chat = this.deps.settings.value.chat;
    const chosen = await this.models.choose(chat.model, this.deps.settings.value.baseUrl);
    const model = (forChat && this.customization.askModel(forChat)) || chosen;
    const context = this.contextFor(model);
    const parts = forChat ? await this.customization.askParts(forChat, { contextTokens: context.contextTokens, maxTokens: chat.maxTokens }) : [];
    const systemPrompt = [chat.systemPrompt.trim(), ...parts].filter((p) => p !== "").join("\n\n");
    return { model, systemPrompt, temperature: chat.temperature, maxTokens: chat.maxTokens, ...context };
  }

  private contextFor(model: string): Pick<ChatSetup, "contextTokens" | "contextSource"> {
    const setting = this.deps.settings.value.chat.contextTokens;
    if (setting > 0) return { contextTokens: setting, contextSource: "setting" };
    const reported = this.models.all.find((m) => m.id === model)?.context_length;
    return reported ? { contextTokens: reported, contextSource: "server" } : { contextTokens: assumedContextTokens, contextSource: "default" };
  }

  /** Streams an answer from the server (questions and compaction summaries). */
  streamAnswer(body: ChatRequestBody, signal: AbortSignal) {
    return this.stream(body, signal);
  }

  private async *stream(body: ChatRequestBody, signal: AbortSignal) {
    const started = performance.now();
    this.deps.log.info(`chat: ${body.model}, ${body.messages.length} messages, max_tokens ${body.max_tokens}`);
    const client = await this.deps.clients.create();
    yield* client.streamChat(body, signal);
    this.deps.log.info(`chat: answered in ${Math.round(performance.now() - started)} ms`);
  }

  private ended(chatId: string, turn: AssistantTurn): void {
    const how = turn.status === "error" ? `failed (${turn.error?.kind}: ${turn.error?.message})` : turn.status;
    const tokens = turn.usage ? `, ${turn.usage.prompt_tokens} prompt + ${turn.usage.completion_tokens} answer tokens` : "";
    this.deps.log.info(`chat: answer ${how}${tokens}`);
    this.postStateIfActive(chatId);
    this.deps.onAnswered?.(turn);
  }

  private postStateIfActive(chatId: string): void {
    if (chatId === this.deps.store.active().id) this.postState();
  }

  private async rename(id: string): Promise<void> {
    const chat = this.deps.store.get(id);
    if (chat === undefined) return;
    const title = await vscode.window.showInputBox({ title: "Rename Chat", value: chat.title, validateInput: (v) => (v.trim() === "" ? "Enter a name." : undefined) });
    if (title === undefined) return;
    const current = this.deps.store.get(id);
    if (current) this.deps.store.put({ ...current, title: title.trim(), titleSet: true });
    this.postState();
  }

  private async delete(id: string): Promise<void> {
    const chat: Chat | undefined = this.deps.store.get(id);
    if (chat === undefined) return;
    const answer = await vscode.window.showWarningMessage(`Delete the chat "${chat.title}"?`, { modal: true }, "Delete");
    if (answer !== "Delete") return;
    // Everything working for the chat stops with it: an agent task waiting on a card nobody can
    // answer now, or a request the model would go on generating.
    this.agent.stop(id);
    this.customization.stop(id);
    this.session.stop(id);
    this.deps.store.remove(id);
    void this.deps.views.forget(id);
    this.postState();
  }

  private async selectModel(model: string): Promise<void> {
    await this.deps.settings.setModel("chat", model);
    this.postState();
  }

  private async refreshModels(): Promise<void> {
    await this.models.refresh();
    this.postState();
  }

  /** Opens a file an answer names (workspace-relative), if it is in the workspace, at `line` (1-based) when given. */
  private async openFile(path: string, line?: number): Promise<void> {
    const uri = await workspaceFile(path);
    if (!uri) return this.showNotice(`${path} is not a file of this workspace.`);
    const at = line === undefined ? undefined : new vscode.Range(line - 1, 0, line - 1, 0);
    await vscode.window.showTextDocument(uri, { preview: false, ...(at ? { selection: at } : {}) });
  }

  private async copyText(text: string, notice = "Copied."): Promise<void> {
    await vscode.env.clipboard.writeText(text);
    this.showNotice(notice);
  }

  private errorAction(action: Extract<ViewMessage, { type: "errorAction" }>["action"]): Promise<void> {
    switch (action) {
      case "retry":
        return this.retry();
      case "setApiKey":
        return this.fixThenListModels("wisp.setApiKey");
      case "selectModel":
        return this.fixThenListModels("wisp.selectModel", "chat");
      case "startLocalServer":
        return this.fixThenListModels("wisp.startLocalServer");
      case "openSettings":
        return this.run("workbench.action.openSettings", "wisp.");
      case "showLogs":
        return this.run("wisp.showLogs");
      case "downloadModel":
        return this.fixThenListModels("wisp.downloadRecommendedModel");
      case "connectServer":
        return this.fixThenListModels("wisp.connectServer");
    }
  }

  /**
   * Asks again for the failed answer, with the model list listed anew on the way. A failed agent
   * task goes on from where it stopped (its steps, changes and Keep/Undo stay), as Continue does:
   * answered again as a plain chat question it would lose them, and the tools.
   */
  private async retry(): Promise<void> {
    this.models.invalidate();
    if (lastAnswer(this.deps.store.active())?.agent) {
      const notice = this.agent.continue();
      if (notice) this.showNotice(notice);
      return;
    }
    await this.session.regenerate();
  }

  /** Runs a command that may change what the server lists (key, model, server), then lists it anew. */
  private async fixThenListModels(command: string, ...args: unknown[]): Promise<void> {
    await this.run(command, ...args);
    this.models.invalidate();
    await this.refreshModels();
  }

  private async run(command: string, ...args: unknown[]): Promise<void> {
    await vscode.commands.executeCommand(command, ...args);
  }

  /** Whether the base URL is on this machine (where starting the local server can help). */
  private serverIsLocal(): boolean {
    try {
      localAddress(this.deps.settings.value.baseUrl);
      return true;
    } catch {
      return false;
    }
  }
}
