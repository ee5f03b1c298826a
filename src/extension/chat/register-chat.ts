import { randomUUID } from "node:crypto";
import { join } from "node:path";
import * as vscode from "vscode";
import { ChatStore } from "../../core/chat/chat-store";
import { ChatViewMemory } from "../../core/chat/view-memory";
import { quickActions, type QuickAction } from "../../core/chat/prompt";
import { parseViewMessage, type HostMessage, type MentionItem, type ViewState } from "../../core/chat/protocol";
import type { MentionKind } from "../../core/context/mentions";
import type { ApiKeyStore } from "../api-key";
import type { ClientFactory } from "../client-factory";
import type { Logger } from "../logger";
import { registerWispCommand } from "../run-command";
import type { Settings } from "../settings";
import { ChatPanel } from "./chat-panel";
import type { ChatSessionEvents } from "../../core/chat/chat-session";
import type { AssistantTurn } from "../../core/chat/conversation";
import type { ChatSetup } from "../../core/chat/chat-request";
import { AgentController } from "../agent/agent-controller";
import { registerOriginalContent } from "../agent/original-content";
import { ChatViewProvider, chatViewId } from "./chat-view-provider";
import { ChatContext } from "../context/chat-context";
import type { SensitiveFileRules } from "../context/sensitive-file-rules";
import { McpAgentTools } from "../mcp/mcp-agent-tools";
import type { McpServers } from "../mcp/mcp-servers";
import type { IndexStatus } from "../context/workspace-index";
import { problemsOnLines } from "../context/problems";
import { CodeActions, type ApplyAsEdit } from "./code-actions";
import { FileChatStorage } from "./file-chat-storage";
import { attachmentFromEditor } from "./editor-attachment";
import { withTurn, withUserTurn, type CodeAttachment } from "../../core/chat/conversation";
import type { TaskProfile } from "../agent/agent-controller";
import type { Approvals } from "../agent/approvals";
import { AgentSelection } from "../customization/agent-selection";
import { ChatCustomization } from "../customization/chat-customization";
import type { CustomizationFiles } from "../customization/customization-files";
import { noEditorMessage } from "../no-editor-message";

export interface ChatDeps {
  readonly context: vscode.ExtensionContext;
  readonly settings: Settings;
  readonly keys: ApiKeyStore;
  readonly clients: ClientFactory;
  readonly log: Logger;
  /** Chat code applied to an editor opens as a reviewed edit. */
  readonly applyAsEdit: ApplyAsEdit;
  /** wisp.sensitiveFiles and .wispignore, shared with ghost text. */
  readonly sensitive: SensitiveFileRules;
  /** MCP servers, whose tools agent mode offers. */
  readonly mcp: McpServers;
  /** @terminal's attachment: the terminal's last command. */
  readonly terminal?: (newId: () => string) => Promise<CodeAttachment>;
  /** Prompt files, custom agents and scoped instructions of the workspace and the user's folder. */
  readonly customization: CustomizationFiles;
  /** Fires when an edit of the edit flow ended (/init saves AGENTS.md on Accept). */
  readonly editEnded: vscode.Event<{ readonly file: vscode.TextDocument; readonly end: string | undefined }>;
  /** Every answer (or agent task) that ended, however it ended. */
  readonly onAnswered?: (turn: AssistantTurn) => void;
}

/** What other features put in the chat. */
export interface ChatHooks {
  /** A question and its answer, already written (a review's findings), in a new chat, shown. */
  report(question: string, answer: string, model: string): Promise<void>;
  /**
   * Starts a task with its own instructions and tools (a terminal failure's explanation) in a
   * new chat, the attachments going with its question; resolves once it started.
   */
  startTask(profile: TaskProfile, question: string, attachments: readonly CodeAttachment[]): Promise<void>;
  /** The agent's approval cards, which a task's tools ask through. */
  readonly approvals: Approvals;
}

/** Read-only views of the chat for the extension's own tests. */
export interface ChatProbe {
  state(): ViewState;
  /** The webview is up and has asked for its state. */
  viewReady(): boolean;
  /** The last state delivered to the webview (what it draws), if any. */
  posted(): ViewState | undefined;
  /** Resolves when every chat change is stored. */
  flush(): Promise<void>;
  /** The workspace index behind @file and the snippets found for a question. */
  index(): IndexStatus;
  /** What the @ list offers for a kind ("" while none is typed) and a query. */
  mentions(kind: MentionKind | "", query: string): Promise<MentionItem[]>;
  /** Handles a message exactly as if the chat webview had sent it (checked the same way). */
  fromView(message: unknown): Promise<void>;
  /** The customization files read (usable ones), by where they come from. */
  customization(): { prompts: string[]; agents: string[]; instructions: string[] };
}

const quickActionCommands: Record<QuickAction, string> = {
  explain: "wisp.chat.explain",
  findProblems: "wisp.chat.findProblems",
  writeTests: "wisp.chat.writeTests",
};

/** The chat side panel: its view, its commands, and the per-workspace store of chats. */
export function registerChat(deps: ChatDeps): { disposable: vscode.Disposable; probe: ChatProbe; hooks: ChatHooks } {
  const { context, settings, keys, clients, log } = deps;
  const newId = () => randomUUID();
  // Files in the workspace's storage folder; a window without a folder has none: its state then.
  const folder = context.storageUri?.scheme === "file" ? join(context.storageUri.fsPath, "chats") : undefined;
  const storage = folder ? FileChatStorage.open(folder, log) : context.workspaceState;
  log.info(`chat: chats kept in ${folder ?? "the workspace state"}`);
  const store = new ChatStore(storage, {
    newId,
    now: () => Date.now(),
    onError: (error) => log.error(`chat: saving chats failed: ${(error as Error).message}`),
  });
  if (store.recovered() > 0) {
    // Once: the rebuilt index is written, so the next window reads it.
    const message = `Wisp: the chat list could not be read; ${store.recovered()} chats were listed again from their own files (the damaged list was kept aside: see the Wisp log).`;
    log.warn(`chat: ${message}`);
    void vscode.window.showWarningMessage(message);
  }
  const codeActions = new CodeActions(deps.applyAsEdit);
  const chatContext = new ChatContext(settings, log, newId, deps.sensitive, undefined, deps.terminal);
  // The provider posts for the panel and the panel answers the provider: built in this order.
  let provider: ChatViewProvider | undefined;
  const views = new ChatViewMemory(storage);
  const selection = new AgentSelection(deps.customization, context.workspaceState);
  // Built with the panel (it needs the panel); the agent asks it only once tasks run.
  let customization: ChatCustomization | undefined;
  const agent = (events: ChatSessionEvents, chatSetup: () => Promise<ChatSetup>) =>
    new AgentController({
      store,
      settings,
      clients,
      log,
      events,
      chatSetup,
      isSensitive: (uri) => chatContext.sensitive.isSensitive(uri),
      indexed: (path) => chatContext.index.index.chunksOf(path),
      indexedPaths: () => (chatContext.index.status().state === "ready" ? [...chatContext.index.index.paths()].sort() : undefined),
      ignoreRules: (folder) => chatContext.gitignores.rules(folder),
      memento: context.workspaceState,
      mcp: (approvals) => new McpAgentTools(deps.mcp, approvals, context.workspaceState, () => ({ ...settings.value.mcp, maxOutputChars: settings.value.agent.maxOutputChars })),
      storageFolder: context.storageUri?.scheme === "file" ? context.storageUri.fsPath : undefined,
      newId,
      customization: { selectedRun: () => customization!.selectedRun(), task: (chatId, run) => customization!.task(chatId, run) },
    });
  let posted: ViewState | undefined;
  const post = async (message: HostMessage) => {
    const delivered = (await provider?.post(message)) ?? false;
    if (delivered && message.type === "state") posted = message.state;
    return delivered;
  };
  const panel = new ChatPanel({
    store, views, settings, clients, codeActions, context: chatContext, log, newId, agent, post, onAnswered: deps.onAnswered,
    customization: (chatPanel, events) =>
      (customization = new ChatCustomization(chatPanel, events, {
        files: deps.customization, selection, store, settings, context: chatContext, log, newId, post,
        attachFromEditor: (withProblems) => attachFromEditor(withProblems),
        editor: () => vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors[0],
        init: { apply: deps.applyAsEdit, ended: deps.editEnded },
      })),
  });
  provider = new ChatViewProvider(context.extensionUri, { ready: () => panel.ready(), message: (m) => void handle(panel.message(m)) }, log);

  /** View actions run detached from the view: their failures become a notice and a log line. */
  async function handle(work: Promise<void>): Promise<void> {
    try {
      await work;
    } catch (error) {
      log.error(`chat: ${(error as Error).message}`);
      panel.showNotice((error as Error).message);
    }
  }

  /** Attaches the editor's selection (or visible lines) to the next message and shows the panel. */
  async function attachFromEditor(withProblems = false): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    if (editor === undefined) throw new Error(await noEditorMessage("Open a file and select the code to ask about."));
    const attachment = attachmentFromEditor(editor, newId);
    if (attachment === undefined) throw new Error("There is no code to attach: select some, or open a file that is not empty.");
    await chatContext.consent.require(editor.document.uri);
    panel.session.attach(attachment);
    const problems = withProblems ? problemsOnLines(editor.document, attachment.startLine, attachment.endLine, newId) : undefined;
    if (problems) panel.session.attach(problems);
    if (attachment.source === "visible") {
      panel.showNotice(`Nothing was selected: attached the visible part of ${attachment.path} (lines ${attachment.startLine}-${attachment.endLine}).`);
    }
    await provider!.reveal(true);
    panel.focusPrompt();
  }

  const command = (id: string, run: (...args: unknown[]) => unknown) => registerWispCommand(id, run, log);
  let lastConnection = `${settings.value.baseUrl}`;
  const refreshModels = () => {
    panel.models.invalidate();
    void panel.models.refresh().then(() => panel.postState());
  };

  const disposable = vscode.Disposable.from(
    codeActions,
    chatContext,
    panel,
    provider,
    vscode.window.registerWebviewViewProvider(chatViewId, provider),
    command("wisp.askAboutSelection", async (question) => {
      await attachFromEditor();
      // A question passed along (e.g. by a keybinding's args) is sent at once.
      if (typeof question === "string" && question.trim() !== "") await panel.customization.sendQuestion(question);
    }),
    ...Object.entries(quickActionCommands).map(([action, id]) =>
      command(id, async () => {
        // What the editor already reports about these lines is the first thing to explain or fix.
        await attachFromEditor(action === "explain" || action === "findProblems");
        await panel.customization.sendQuestion(quickActions[action as QuickAction].prompt);
      }),
    ),
    registerOriginalContent((path) => panel.agent.original(path)),
    command("wisp.agent.ask", async (task) => {
      const text = typeof task === "string" && task.trim() !== "" ? task : await vscode.window.showInputBox({ title: "Wisp: Ask Agent", prompt: "The task for the agent: it reads, edits and runs commands in this workspace, asking before commands.", placeHolder: "Make the failing test pass", ignoreFocusOut: true });
      if (text === undefined || text.trim() === "") return;
      await panel.agent.setMode("agent");
      panel.newChat();
      await provider!.reveal(true);
      await panel.agent.start(text);
    }),
    command("wisp.newChat", async () => {
      panel.newChat();
      await provider!.reveal(true);
      panel.focusPrompt();
    }),
    // What a code block's Apply button does, for a caller that has the code (hidden from the palette).
    command("wisp.chat.applyCode", async (code, language) => {
      if (typeof code !== "string") throw new Error("Apply needs the code to apply.");
      return codeActions.run("apply", code, typeof language === "string" ? language : "");
    }),
    command("wisp.chat.viewAsCode", async () => {
      await provider!.reveal(true);
      await panel.viewAsCode("");
    }),
    keys.onDidChange(refreshModels),
    deps.customization.onDidChange(() => panel.postState()),
    settings.onDidChange((s) => {
      if (s.baseUrl !== lastConnection) {
        lastConnection = s.baseUrl;
        refreshModels();
      } else panel.postState();
    }),
  );
  const hooks: ChatHooks = {
    report: async (question, answer, model) => {
      panel.newChat();
      const now = Date.now();
      const asked = withUserTurn(store.active(), { id: newId(), role: "user", text: question, attachments: [], createdAt: now });
      store.put(withTurn(asked, { id: newId(), role: "assistant", text: answer, model, status: "done", createdAt: now, finishedAt: now }, now));
      panel.postState();
      await provider!.reveal(false);
    },
    startTask: async (profile, question, attachments) => {
      panel.newChat();
      for (const attachment of attachments) panel.session.attach(attachment);
      await provider!.reveal(true);
      void panel.agent.startWith(profile, question);
    },
    approvals: panel.agent.approvals,
  };
  return {
    disposable,
    hooks,
    probe: {
      state: () => panel.state(),
      viewReady: () => provider!.isReady,
      posted: () => posted,
      flush: () => store.flush(),
      index: () => chatContext.index.status(),
      mentions: (kind, query) => chatContext.mentions.list(kind, query),
      fromView: async (message) => {
        const parsed = parseViewMessage(message);
        if (parsed === undefined) throw new Error(`not a message the chat view may send: ${JSON.stringify(message)}`);
        await panel.message(parsed);
      },
      customization: () => ({
        prompts: deps.customization.prompts().map((p) => p.value.source),
        agents: deps.customization.agents().map((a) => a.source),
        instructions: deps.customization.instructions().map((i) => i.source),
      }),
    },
  };
}
