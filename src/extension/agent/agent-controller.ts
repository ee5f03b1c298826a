import { join } from "node:path";
import * as vscode from "vscode";
import { AgentSession, type AgentSetup, type AgentTools, type TaskRun } from "../../core/agent/agent-session";
import { agentModelRefusal } from "../../core/onboarding/agent-fit";
import { agentSystemPrompt } from "../../core/agent/agent-prompt";
import { ToolSchemaCompiler } from "../../core/agent/tool-args";
import type { ChatSessionEvents } from "../../core/chat/chat-session";
import type { ChatStore } from "../../core/chat/chat-store";
import type { ChatTurn } from "../../core/chat/conversation";
import type { ChatSetup } from "../../core/chat/chat-request";
import { relativeInFolder, workspacePathOf } from "../../core/context/workspace-paths";
import type { ApprovalChoice, ChatMode } from "../../core/chat/protocol";
import type { Chunk } from "../../core/context/chunker";
import type { ClientFactory } from "../client-factory";
import type { IgnoreRules } from "../context/ignore-rules";
import type { Logger } from "../logger";
import type { Settings } from "../settings";
import { AgentHighlights } from "./agent-highlights";
import { AgentWorkspace } from "./agent-workspace";
import { taskFolder } from "./task-folder";
import { loadRules } from "./agent-rules";
import { Approvals } from "./approvals";
import { CheckpointStore, type UndoResult } from "./checkpoint-store";
import { DocumentReloads } from "./document-reloads";
import { CheckpointActions } from "./checkpoint-actions";
import { RequestCheckpointStore } from "./request-checkpoint-store";
import { EditTools } from "./edit-tools";
import { WorkspaceTools } from "./workspace-tools";
import type { McpAgentTools } from "../mcp/mcp-agent-tools";
import { allowsMcp } from "../../core/customization/tool-allow-list";
import type { AgentRun, TaskCustomization } from "../../core/customization/task-customization";
import { CustomizedTools } from "../customization/customized-tools";
import { commandShell } from "./command-runner";
import { mayOverwrite } from "./overwrite-consent";

export interface AgentControllerDeps {
  readonly store: ChatStore;
  readonly settings: Settings;
  readonly clients: ClientFactory;
  readonly log: Logger;
  readonly events: ChatSessionEvents;
  /** The chat's model and limits (the agent uses the chat model). */
  readonly chatSetup: () => Promise<ChatSetup>;
  readonly isSensitive: (uri: vscode.Uri) => boolean;
  /** The workspace index's chunks of a file, by its path as the chat names it (workspace-path.ts). */
  readonly indexed: (path: string) => readonly Chunk[] | undefined;
  /** The files the workspace index holds, as the chat names them, sorted; undefined while it is not ready. */
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
  /** The agent chosen in the switch, and what a task's agent, files in play and prompt file change. */
  readonly customization?: {
    selectedRun(): AgentRun;
    task(chatId: string, run: AgentRun): TaskCustomization;
  };
}

const modeKey = "wisp.chat.mode";

/** A task run with its own instructions and tools instead of the workspace agent's (a terminal fix). */
export interface TaskProfile {
  readonly systemPrompt: string;
  readonly maxSteps: number;
  readonly tools: () => AgentTools;
}

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
  /** Restore Checkpoint and Redo, per request of each agent conversation. */
  readonly checkpoints: CheckpointActions;
  private readonly requestCheckpoints: RequestCheckpointStore;
  private readonly highlights: AgentHighlights;
  /** The profile of each chat's last task, when it has one (Continue goes on with it). */
  private readonly profiles = new Map<string, TaskProfile>();
  /** How each chat's current task was asked for (its agent, a prompt file's tools and model). */
  private readonly runs = new Map<string, AgentRun>();
  /** The folder each chat's last task worked in. */
  private readonly folders = new Map<string, vscode.Uri>();

  constructor(private readonly deps: AgentControllerDeps) {
    this.mcpTools = deps.mcp?.(this.approvals);
    this.checkpoint = CheckpointStore.open(deps.storageFolder ? join(deps.storageFolder, "agent-checkpoint") : undefined, deps.log);
    this.highlights = new AgentHighlights((path) => this.original(path));
    this.requestCheckpoints = RequestCheckpointStore.open(deps.storageFolder ? join(deps.storageFolder, "agent-requests") : undefined);
    // Every chat with a stored entry, listed or not: a damaged index must not cost its checkpoints.
    void this.requestCheckpoints.prune(deps.store.storedIds()).catch((error: Error) => deps.log.warn(`agent: pruning checkpoints failed: ${error.message}`));
    this.checkpoints = new CheckpointActions({
      store: deps.store,
      checkpoints: this.requestCheckpoints,
      events: deps.events,
      isRunning: (chatId) => this.session.isRunning(chatId),
      log: deps.log,
      now: () => Date.now(),
      rewrote: (paths, how) => void this.rewrote(paths, how),
    });
    this.session = new AgentSession({
      store: deps.store,
      stream: (body, signal) => this.stream(body, signal),
      setup: (task) => this.setup(task),
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

  /** Starts a task in the active chat, with the agent chosen in the switch unless `run` says otherwise. */
  async start(text: string, run?: AgentRun): Promise<boolean> {
    const chatId = this.deps.store.active().id;
    if (!this.isRunning(chatId)) {
      this.profiles.delete(chatId);
      this.runs.set(chatId, run ?? this.deps.customization?.selectedRun() ?? {});
    }
    const blocked = this.blocked() ?? this.busyElsewhere(chatId);
    if (blocked !== undefined) return this.session.start(text, blocked);
    const unfit = await this.modelRefusal();
    return this.session.start(text, unfit?.text, unfit?.model);
  }

  /** Starts a task with its own instructions and tools in the active chat (its tools judge the workspace's trust themselves). */
  startWith(profile: TaskProfile, text: string): Promise<boolean> {
    const chatId = this.deps.store.active().id;
    this.profiles.set(chatId, profile);
    this.runs.set(chatId, {});
    return this.session.start(text);
  }

  /** How the chat's last task was asked for. */
  runOf(chatId: string): AgentRun {
    return this.runs.get(chatId) ?? {};
  }

  /** Goes on with the active chat's last task (not awaited: it runs until it ends); why not, when it cannot. */
  continue(): string | undefined {
    const chatId = this.deps.store.active().id;
    const busy = this.busyElsewhere(chatId);
    if (busy === undefined) void this.session.continue(chatId);
    return busy;
  }

  /**
   * Why a workspace task cannot start in this chat now: another chat's is running. The last task's
   * changes are one checkpoint (Keep/Undo), so two at once would take each other's originals.
   * A terminal fix keeps no checkpoint and runs beside one.
   */
  private busyElsewhere(chatId: string): string | undefined {
    const other = this.session.runningChats().find((id) => id !== chatId && !this.profiles.has(id));
    if (other === undefined) return undefined;
    const title = this.deps.store.get(other)?.title;
    return `Another chat's agent task is running${title ? ` ("${title}")` : ""}. One task changes the workspace at a time, so that each one's Undo gives back its own changes: stop it or let it finish, then ask again here.`;
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
    this.highlights.untrack(paths);
    if (action === "keep") {
      await checkpoint.forget(paths);
      this.session.review(owner.chatId, turnId, "kept", paths);
      return path ? `Kept the changes to ${path}.` : "Kept the task's changes.";
    }
    const folder = await this.lastTaskFolder();
    const undoing = paths ?? checkpoint.paths();
    // As Restore Checkpoint does: a file changed since the task wrote it is not overwritten unasked.
    const changed = await this.requestCheckpoints.changedSinceTask(owner.chatId, turnId, folder.fsPath, paths);
    if (!(await mayOverwrite(folder.fsPath, undoing.map((path) => ({ path, changed: changed.has(path) })), "Undo"))) return "Nothing was undone.";
    const reloads = new DocumentReloads(undoing.map((path) => vscode.Uri.joinPath(folder, path)));
    const { done, failed } = await checkpoint.undo(folder.fsPath, paths);
    if (!(await reloads.reloaded())) this.deps.log.info("agent: an editor had not shown an undone file's restored text after 5 s");
    this.requestCheckpoints.undone(owner.chatId, turnId, done);
    this.session.review(owner.chatId, turnId, "undone", done);
    this.deps.log.info(`agent: undid ${done.length} file(s)${failed.length > 0 ? `, ${failed.length} not: ${failed.map((f) => `${f.path} (${f.reason})`).join(", ")}` : ""}`);
    return undoNotice(done, failed);
  }

  /** A file the last task changed, in the folder it worked in (Open Diff). */
  async changedFile(path: string): Promise<vscode.Uri> {
    return vscode.Uri.joinPath(await this.lastTaskFolder(), path);
  }

  /** The folder the last task worked in (the first folder, for a checkpoint kept before the folder was). */
  private async lastTaskFolder(): Promise<vscode.Uri> {
    const root = (await this.checkpoint).root();
    return root === undefined ? vscode.workspace.workspaceFolders![0]!.uri : vscode.Uri.file(root);
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
    this.highlights.dispose();
  }

  /** A restore or a Redo rewrote files: the editor's highlights of the last task follow. */
  private async rewrote(paths: readonly string[], how: "restored" | "redone"): Promise<void> {
    if (how === "restored") return this.highlights.untrack(paths);
    const checkpoint = await this.checkpoint;
    const folder = await this.lastTaskFolder();
    for (const path of paths) if (checkpoint.has(path)) this.highlights.track(vscode.Uri.joinPath(folder, path), path);
  }

  /** Why the chat model cannot carry out a task (the embedded models, a small context), and its name. */
  private async modelRefusal(): Promise<{ text: string; model: string } | undefined> {
    let chat: ChatSetup;
    try {
      chat = await this.deps.chatSetup();
    } catch {
      return undefined; // No model at all: the task's first step says why, with the ways out.
    }
    const text = agentModelRefusal(chat);
    if (text !== undefined) this.deps.log.info(`agent: not starting with ${chat.model}: ${text}`);
    return text === undefined ? undefined : { text, model: chat.model };
  }

  private async setup(task: TaskRun): Promise<AgentSetup> {
    const chat = await this.deps.chatSetup();
    const profile = this.profiles.get(task.chatId);
    if (profile) return { model: chat.model, systemPrompt: profile.systemPrompt, temperature: chat.temperature, maxTokens: chat.maxTokens, contextTokens: chat.contextTokens, maxSteps: profile.maxSteps };
    const custom = this.deps.customization?.task(task.chatId, this.runOf(task.chatId));
    if (custom?.modelNotice) this.deps.events.notice(custom.modelNotice);
    const agent = this.deps.settings.value.agent;
    const folder = this.folderOf(task);
    const rules = agent.rules ? await loadRules(folder.uri, this.deps.isSensitive) : [];
    const systemPrompt = agentSystemPrompt({
      workspaceName: folder.name,
      otherFolders: vscode.workspace.workspaceFolders!.filter((f) => f.index !== folder.index).map((f) => f.name),
      platform: process.platform,
      shell: commandShell(),
      rules,
      userPrompt: chat.systemPrompt,
    });
    const several = vscode.workspace.workspaceFolders!.length > 1;
    const names = vscode.workspace.workspaceFolders!.map((f) => f.name);
    const linked = custom?.instructionsLinkedBy(rules.map((rule) => ({ ...rule, path: workspacePathOf(names, folder.index, rule.path) }))) ?? [];
    return {
      model: custom?.model ?? chat.model,
      systemPrompt: [systemPrompt, ...(custom?.promptParts ?? []), ...linked].join("\n\n"),
      temperature: chat.temperature,
      maxTokens: chat.maxTokens,
      contextTokens: chat.contextTokens,
      maxSteps: agent.maxSteps,
      ...(several ? { folder: folder.name } : {}),
    };
  }

  private async tools(task: TaskRun): Promise<AgentTools> {
    const profile = this.profiles.get(task.chatId);
    if (profile) return profile.tools();
    const folder = this.folderOf(task);
    const names = vscode.workspace.workspaceFolders!.map((f) => f.name);
    const agent = this.deps.settings.value.agent;
    const checkpoint = await this.checkpoint;
    if (!task.resumed || checkpoint.ownedBy()?.turnId !== task.turnId) {
      const previous = checkpoint.ownedBy();
      // Starting the next task keeps the last one's changes (its Keep/Undo go away).
      if (previous) this.session.review(previous.chatId, previous.turnId, "kept");
      this.highlights.untrack();
      await checkpoint.begin({ chatId: task.chatId, turnId: task.turnId }, folder.uri.fsPath);
    }
    // The request's own checkpoint (the user turn this task answers): Restore Checkpoint goes back to before it.
    const question = this.question(task);
    if (question?.role === "user") await this.requestCheckpoints.begin(task.chatId, question.id, task.turnId, folder.uri.fsPath);
    const request = question?.role === "user" ? this.requestCheckpoints.recorder(task.chatId, question.id, folder.uri.fsPath) : undefined;
    const ws = await AgentWorkspace.open({
      folder,
      approvals: this.approvals,
      isSensitive: this.deps.isSensitive,
      // The index holds every folder's files; the agent's tools reach its own folder only, by paths relative to it.
      indexed: (path) => this.deps.indexed(workspacePathOf(names, folder.index, path)),
      indexedPaths: () => this.deps.indexedPaths()?.flatMap((path) => relativeInFolder(path, names, folder.index) ?? []),
      ignoreRules: this.deps.ignoreRules,
      askBeforeReads: agent.approveReads === "ask",
      maxOutputChars: agent.maxOutputChars,
    });
    const edits = new EditTools({ ws, checkpoint, request, approvals: this.approvals, askBeforeEdits: agent.approveEdits === "ask", rules: agent.rules, edited: (path) => this.highlights.track(vscode.Uri.joinPath(folder.uri, path), path) });
    const custom = this.deps.customization?.task(task.chatId, this.runOf(task.chatId));
    // An agent whose list names no MCP tool starts no MCP server.
    const mcp = custom?.allowList && !allowsMcp(custom.allowList) ? undefined : this.mcpTools;
    const tools = new WorkspaceTools(ws, edits, {
      cwd: folder.uri.fsPath,
      approvals: this.approvals,
      autoApprove: agent.autoApprove,
      denyCommands: agent.denyCommands,
      timeoutMs: agent.commandTimeoutSeconds * 1000,
      maxOutputChars: agent.maxOutputChars,
      isSensitive: (relative) => ws.isSensitivePath(relative),
    }, mcp, this.schemas);
    return custom ? new CustomizedTools(tools, custom, (name) => this.mcpTools?.find(name), (path) => workspacePathOf(names, folder.index, path)) : tools;
  }

  /** The user turn a task answers. */
  private question(task: TaskRun): ChatTurn | undefined {
    const turns = this.deps.store.get(task.chatId)?.turns ?? [];
    return turns[turns.findIndex((t) => t.id === task.turnId) - 1];
  }

  /** The folder the task works in (see taskFolder), kept as the chat's for its next tasks. */
  private folderOf(task: TaskRun): vscode.WorkspaceFolder {
    const root = this.requestCheckpoints.rootOf(task.chatId);
    const earlier = this.folders.get(task.chatId) ?? (root === undefined ? undefined : vscode.Uri.file(root));
    const folder = taskFolder(this.question(task), earlier) ?? vscode.workspace.workspaceFolders![0]!;
    this.folders.set(task.chatId, folder.uri);
    return folder;
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

/** What Undo did, and what it could not do (those files keep the task's changes, and Undo again retries them). */
function undoNotice(done: readonly string[], failed: UndoResult["failed"]): string {
  const undid = done.length === 1 ? `Undid the changes to ${done[0]}.` : `Undid the changes to ${done.length} files.`;
  if (failed.length === 0) return undid;
  const why = failed.map((f) => `${f.path} (${f.reason})`).join(", ");
  return `${done.length > 0 ? `${undid} ` : ""}Could not restore ${why}: ${failed.length === 1 ? "it keeps" : "they keep"} the task's changes; Undo again to retry.`;
}
