import { join } from "node:path";
import * as vscode from "vscode";
import { AgentSession, type AgentSetup } from "../../core/agent/agent-session";
import { agentSystemPrompt } from "../../core/agent/agent-prompt";
import { ToolSchemaCompiler } from "../../core/agent/tool-args";
import type { ChatSessionEvents } from "../../core/chat/chat-session";
import type { ChatStore } from "../../core/chat/chat-store";
import type { ChatSetup } from "../../core/chat/chat-request";
import type { ApprovalChoice, ChatMode } from "../../core/chat/protocol";
import type { Chunk } from "../../core/context/chunker";
import type { ClientFactory } from "../client-factory";
import type { IgnoreRules } from "../context/ignore-rules";
import type { Logger } from "../logger";
import type { Settings } from "../settings";
import { AgentHighlights } from "./agent-highlights";
import { AgentWorkspace } from "./agent-workspace";
import { loadRules } from "./agent-rules";
import { Approvals } from "./approvals";
import { CheckpointStore } from "./checkpoint-store";
import { EditTools } from "./edit-tools";
import { WorkspaceTools } from "./workspace-tools";
import type { McpAgentTools } from "../mcp/mcp-agent-tools";

export interface AgentControllerDeps {
  readonly store: ChatStore;
  readonly settings: Settings;
  readonly clients: ClientFactory;
  readonly log: Logger;
  readonly events: ChatSessionEvents;
  /** The chat's model and limits (the agent uses the chat model). */
  readonly chatSetup: () => Promise<ChatSetup>;
  readonly isSensitive: (uri: vscode.Uri) => boolean;
  readonly indexed: (path: string) => readonly Chunk[] | undefined;
  readonly indexedPaths: () => string[] | undefined;
  /** The folder's .gitignore rules, kept while no .gitignore changes (undefined: read at each task). */
  readonly ignoreRules?: (folder: vscode.WorkspaceFolder) => Promise<IgnoreRules>;
  /** Per-workspace memory (the mode). */
  readonly memento: vscode.Memento;
  /** MCP servers' tools for the agent (undefined: none). */
  readonly mcp?: (approvals: Approvals) => McpAgentTools;
  /** Where the task's checkpoint is kept (undefined: in memory). */
  readonly storageFolder: string | undefined;
  readonly newId: () => string;
}

const modeKey = "wisp.chat.mode";

/**
 * Agent mode in the chat panel: starts, stops and continues tasks, answers approval cards, and
 * keeps or undoes the last task's changes.
 */
export class AgentController implements vscode.Disposable {
  readonly session: AgentSession;
  readonly approvals = new Approvals();
  private readonly schemas = new ToolSchemaCompiler();
  /** Compiled schemas already logged. */
  private loggedCompiles = 0;
  private readonly mcpTools: McpAgentTools | undefined;
  private checkpoint: Promise<CheckpointStore>;
  private readonly highlights: AgentHighlights | undefined;

  constructor(private readonly deps: AgentControllerDeps) {
    this.mcpTools = deps.mcp?.(this.approvals);
    this.checkpoint = CheckpointStore.open(deps.storageFolder ? join(deps.storageFolder, "agent-checkpoint") : undefined);
    const folder = vscode.workspace.workspaceFolders?.[0];
    this.highlights = folder ? new AgentHighlights(folder.uri, (path) => this.original(path)) : undefined;
    this.session = new AgentSession({
      store: deps.store,
      stream: (body, signal) => this.stream(body, signal),
      setup: () => this.setup(),
      tools: (task) => this.tools(task),
      events: deps.events,
      newId: deps.newId,
      now: () => Date.now(),
    });
  }

  get mode(): ChatMode {
    return this.deps.memento.get<ChatMode>(modeKey) === "agent" ? "agent" : "ask";
  }

  async setMode(mode: ChatMode): Promise<void> {
    await this.deps.memento.update(modeKey, mode);
  }

  /** Why the agent cannot act in this window, or undefined. */
  blocked(): string | undefined {
    if (!vscode.workspace.isTrusted) {
      return "Agent mode is off in Restricted Mode: this workspace is not trusted, so Wisp does not read, edit or run anything in it. Trust the workspace to use the agent.";
    }
    if (!vscode.workspace.workspaceFolders?.length) return "Agent mode works in a workspace folder: open a folder first.";
    return undefined;
  }

  start(text: string): Promise<boolean> {
    return this.session.start(text, this.blocked());
  }

  continue(): Promise<boolean> {
    return this.session.continue(this.deps.store.active().id);
  }

  answer(stepId: string, choice: ApprovalChoice): boolean {
    return this.approvals.answer(stepId, choice);
  }

  /** Keep or Undo the task's changes (all, or one file's). */
  async review(turnId: string, action: "keep" | "undo", path?: string): Promise<string> {
    const checkpoint = await this.checkpoint;
    const chatId = this.deps.store.active().id;
    const owner = checkpoint.ownedBy();
    if (owner?.turnId !== turnId) return "These changes can no longer be undone: a newer task started since.";
    if (this.session.isRunning(chatId)) return "Stop the task before keeping or undoing its changes.";
    const paths = path === undefined ? undefined : [path];
    this.highlights?.untrack(paths);
    if (action === "keep") {
      await checkpoint.forget(paths);
      this.session.review(owner.chatId, turnId, "kept", paths);
      return path ? `Kept the changes to ${path}.` : "Kept the task's changes.";
    }
    const root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const undone = await checkpoint.undo(root, paths);
    this.session.review(owner.chatId, turnId, "undone", paths);
    this.deps.log.info(`agent: undid ${undone.length} file(s)`);
    return undone.length === 1 ? `Undid the changes to ${undone[0]}.` : `Undid the changes to ${undone.length} files.`;
  }

  /** The original text of a file the last task changed ("" for one it created), for Open Diff. */
  async original(path: string): Promise<Uint8Array | undefined> {
    return (await this.checkpoint).original(path);
  }

  stop(chatId: string): void {
    this.session.stop(chatId);
  }

  isRunning(chatId: string): boolean {
    return this.session.isRunning(chatId);
  }

  dispose(): void {
    this.session.shutdown();
    this.highlights?.dispose();
  }

  private async setup(): Promise<AgentSetup> {
    const chat = await this.deps.chatSetup();
    const agent = this.deps.settings.value.agent;
    const folder = vscode.workspace.workspaceFolders![0]!;
    const rules = agent.rules ? await loadRules(folder.uri) : [];
    const systemPrompt = agentSystemPrompt({
      workspaceName: folder.name,
      platform: process.platform,
      shell: process.platform === "win32" ? "cmd.exe" : process.env.SHELL || "/bin/sh",
      rules,
      userPrompt: chat.systemPrompt,
    });
    return { model: chat.model, systemPrompt, temperature: chat.temperature, maxTokens: chat.maxTokens, contextTokens: chat.contextTokens, maxSteps: agent.maxSteps };
  }

  private async tools(task: { chatId: string; turnId: string; resumed: boolean }): Promise<WorkspaceTools> {
    const folder = vscode.workspace.workspaceFolders![0]!;
    const agent = this.deps.settings.value.agent;
    const checkpoint = await this.checkpoint;
    if (!task.resumed || checkpoint.ownedBy()?.turnId !== task.turnId) {
      const previous = checkpoint.ownedBy();
      // Starting the next task keeps the last one's changes (its Keep/Undo go away).
      if (previous) this.session.review(previous.chatId, previous.turnId, "kept");
      this.highlights?.untrack();
      await checkpoint.begin({ chatId: task.chatId, turnId: task.turnId });
    }
    const ws = await AgentWorkspace.open({
      folder,
      approvals: this.approvals,
      isSensitive: this.deps.isSensitive,
      indexed: this.deps.indexed,
      indexedPaths: this.deps.indexedPaths,
      ignoreRules: this.deps.ignoreRules,
      askBeforeReads: agent.approveReads === "ask",
      maxOutputChars: agent.maxOutputChars,
    });
    const edits = new EditTools({ ws, checkpoint, approvals: this.approvals, askBeforeEdits: agent.approveEdits === "ask", rules: agent.rules, edited: (path) => this.highlights?.track(path) });
    return new WorkspaceTools(ws, edits, {
      cwd: folder.uri.fsPath,
      approvals: this.approvals,
      autoApprove: agent.autoApprove,
      denyCommands: agent.denyCommands,
      timeoutMs: agent.commandTimeoutSeconds * 1000,
      maxOutputChars: agent.maxOutputChars,
    }, this.mcpTools, this.schemas);
  }

  private async *stream(body: Parameters<ConstructorParameters<typeof AgentSession>[0]["stream"]>[0], signal: AbortSignal) {
    this.deps.log.info(`agent: ${body.model}, ${body.messages.length} messages, ${body.tools?.length ?? 0} tools`);
    if (this.schemas.compiles !== this.loggedCompiles) {
      this.deps.log.debug(`agent: compiled ${this.schemas.compiles - this.loggedCompiles} tool schema(s); they are kept until the tools change`);
      this.loggedCompiles = this.schemas.compiles;
    }
    const client = await this.deps.clients.create();
    yield* client.streamChat(body, signal);
  }
}
