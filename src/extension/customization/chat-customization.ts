import * as vscode from "vscode";
import type { RuleFile } from "../../core/agent/agent-prompt";
import { planChatRequest } from "../../core/chat/chat-request";
import type { ChatSessionEvents } from "../../core/chat/chat-session";
import type { ChatStore } from "../../core/chat/chat-store";
import { nearlyFull } from "../../core/chat/compaction";
import { Compactor, type CompactionResult } from "../../core/chat/compactor";
import { lastAnswer, withTurn, withUserTurn, type AssistantTurn, type Chat, type CodeAttachment } from "../../core/chat/conversation";
import { quickActions, type QuickAction } from "../../core/chat/prompt";
import type { HostMessage, ViewMessage, ViewState } from "../../core/chat/protocol";
import type { ContextBudget } from "../../core/chat/context-trim";
import { foldersNamedBy, workspacePathOf } from "../../core/context/workspace-paths";
import { askRulesParts } from "../../core/customization/ask-rules";
import { pathsInPlay } from "../../core/customization/paths-in-play";
import { promptAgent } from "../../core/customization/prompt-file";
import { instructionsFor, instructionsLinkedBy } from "../../core/customization/scoped-instructions";
import { builtInCommands, isBuiltInCommand, parseSlashCommand, type BuiltInCommand, type SlashCommandItem } from "../../core/customization/slash-commands";
import { chooseModel, taskCustomization, type AgentRun, type TaskCustomization } from "../../core/customization/task-customization";
import { loadRules } from "../agent/agent-rules";
import type { ChatPanel } from "../chat/chat-panel";
import type { ChatContext } from "../context/chat-context";
import { folderNames } from "../context/workspace-path";
import type { Logger } from "../logger";
import type { Settings } from "../settings";
import { idOf, type AgentSelection } from "./agent-selection";
import type { CustomizationFiles } from "./customization-files";
import { initAgentsMd, type InitDeps } from "./init-agents-md";
import { preparePrompt } from "./prompt-file-runner";

export interface ChatCustomizationDeps {
  readonly files: CustomizationFiles;
  readonly selection: AgentSelection;
  readonly store: ChatStore;
  readonly settings: Settings;
  readonly context: ChatContext;
  readonly log: Logger;
  readonly newId: () => string;
  readonly post: (message: HostMessage) => PromiseLike<unknown>;
  /** Attaches the editor's selection (with its problems) to the next message; throws without an editor. */
  readonly attachFromEditor: (withProblems: boolean) => Promise<void>;
  /** The editor the user worked in last (the chat has the focus while they type a command). */
  readonly editor: () => vscode.TextEditor | undefined;
  readonly init: InitDeps;
}

const quickCommands: Partial<Record<BuiltInCommand, QuickAction>> = { explain: "explain", fix: "findProblems", tests: "writeTests" };

/**
 * What the chat does with the files teams commit: the `/` commands (Wisp's and the prompt files'),
 * the agents of the switch and their handoffs, scoped instructions for the files in play, and
 * compacting the conversation (on request, and by itself when it nears the model's context).
 */
export class ChatCustomization implements vscode.Disposable {
  private readonly compactor: Compactor;
  /** A prompt file's models for the question being sent in Ask mode, by chat. */
  private readonly askRuns = new Map<string, AgentRun>();

  constructor(
    private readonly panel: ChatPanel,
    events: ChatSessionEvents,
    private readonly deps: ChatCustomizationDeps,
  ) {
    this.compactor = new Compactor({ store: deps.store, stream: (body, signal) => panel.streamAnswer(body, signal), setup: () => panel.setup(), events, newId: deps.newId, now: () => Date.now() });
  }

  view(): Pick<ViewState, "commands" | "agents" | "agentId"> {
    const prompts: SlashCommandItem[] = this.deps.files.prompts().map(({ value: p, folderName }) => ({
      name: p.name,
      // Another folder has a prompt file of this name: say whose this one is.
      description: p.description ? (folderName ? `${p.description} (${folderName})` : p.description) : `Prompt file ${p.source}`,
      ...(p.argumentHint ? { argumentHint: p.argumentHint } : {}),
      kind: "prompt",
    }));
    const agentId = this.panel.agent.mode === "agent" ? this.deps.selection.selected() : undefined;
    return { commands: [...builtInCommands, ...prompts], agents: this.deps.selection.options(), ...(agentId ? { agentId } : {}) };
  }

  /** Stops the chat's compaction, if one is under way. */
  stop(chatId: string): void {
    this.compactor.stop(chatId);
  }

  /** A compaction of the chat is under way. */
  isBusy(chatId: string): boolean {
    return this.compactor.isRunning(chatId);
  }

  /** The task's run when nothing else says: the agent chosen in the switch. */
  selectedRun(): AgentRun {
    const agent = this.deps.selection.selected();
    return agent ? { agent } : {};
  }

  /** What a task's agent, files in play and prompt file change in its requests. */
  task(chatId: string, run: AgentRun): TaskCustomization {
    const agent = run.agent ? this.deps.selection.find(run.agent) : undefined;
    return taskCustomization({ chat: this.deps.store.get(chatId), run, agent, instructions: this.deps.files.instructions(), models: this.modelIds(), folders: folderNames() });
  }

  /** The model an Ask question's prompt file chose; undefined: the chat's. */
  askModel(chat: Chat): string | undefined {
    const run = this.askRuns.get(chat.id);
    return run?.models?.length ? chooseModel(run.models, this.modelIds()).model : undefined;
  }

  /**
   * What an Ask question adds to its system prompt: the project's rules (wisp.agent.rules, read at
   * each question as a task reads them, within the budget), the scoped instructions of its files and
   * the instructions files the rules link.
   * With several folders, the rules are those of the folders of the files in play, else of the
   * editor's folder, else of every folder, each named by its folder (`beta/AGENTS.md`).
   */
  async askParts(chat: Chat, budget: ContextBudget): Promise<string[]> {
    const question = chat.turns.findLast((t) => t.role === "user");
    const paths = question ? pathsInPlay(question) : [];
    const names = folderNames();
    const rules = this.deps.settings.value.agent.rules ? await rulesOf(this.ruleFolders(paths), names, (uri) => this.deps.context.sensitive.isSensitive(uri)) : [];
    const all = this.deps.files.instructions();
    const applying = question ? instructionsFor(all, paths, names) : [];
    const linked = instructionsLinkedBy(rules, all, names).filter((file) => !applying.includes(file));
    return askRulesParts(rules, budget, [...applying, ...linked]);
  }

  /** Handles what is the customization's of a view message; false lets the panel go on with it. */
  async message(message: ViewMessage): Promise<boolean> {
    switch (message.type) {
      case "send":
        await this.send(message.text);
        return true;
      case "setMode":
        // The agent part of the switch; the mode itself is agent mode's.
        if (message.mode === "agent") await this.deps.selection.select(message.agent);
        return false;
      case "handoff":
        await this.handoff(message.turnId, message.index);
        return true;
      case "stop":
        this.stop(this.deps.store.active().id);
        return false;
      default:
        return false;
    }
  }

  /** A message typed in the prompt box: a `/` command, a task in agent mode, or a question. */
  async send(text: string): Promise<void> {
    const command = parseSlashCommand(text);
    // A prompt file being edited runs as it is in its editor, even in the moment after a keystroke.
    if (command) await this.deps.files.current();
    if (command && (isBuiltInCommand(command.name) || this.deps.files.prompt(command.name))) return this.runCommand(command.name, command.argument);
    return this.sendInMode(text);
  }

  /** A question with what is attached, from an editor command (Ask About Selection, Explain…), compacting first if need be. */
  async sendQuestion(text: string): Promise<void> {
    if (!(await this.compactIfFull(text))) return;
    await this.panel.session.send(text);
  }

  dispose(): void {
    this.compactor.shutdown();
  }

  private async runCommand(name: string, argument: string): Promise<void> {
    if (!isBuiltInCommand(name)) return this.runPromptFile(name, argument);
    switch (name) {
      case "new":
        return this.panel.newChat();
      case "compact": {
        const result = await this.compact(false, argument);
        return result.ok ? undefined : this.panel.showNotice(result.reason);
      }
      case "init":
        return this.panel.showNotice(await initAgentsMd(this.deps.init, this.deps.editor()?.document.uri));
      case "plan":
        await this.useAgent("plan");
        if (argument === "") return this.panel.showNotice("Plan is chosen: describe the task, and it answers with a plan (it reads, and changes nothing).");
        return this.startTask(argument, { agent: "plan" });
      default: {
        const action = quickCommands[name]!;
        if (!this.panel.session.pending().some((a) => a.source !== "found")) await this.deps.attachFromEditor(name !== "tests");
        const text = argument === "" ? quickActions[action].prompt : `${quickActions[action].prompt}\n\n${argument}`;
        return this.sendInMode(text);
      }
    }
  }

  private async runPromptFile(name: string, argument: string): Promise<void> {
    const file = this.deps.files.prompt(name)!;
    const target = promptAgent(file.value, this.panel.agent.mode);
    if (target !== undefined && target !== "ask" && target !== "agent" && !this.deps.selection.find(target)) {
      throw new Error(`/${name} was not sent: ${file.value.source} names the agent "${target}", which is neither ask, agent, plan nor a custom agent of .github/agents.`);
    }
    const { context } = this.deps;
    const prepared = await preparePrompt(file, argument, {
      editor: this.deps.editor,
      attachFile: async (uri) => {
        await context.consent.require(uri);
        return context.mentions.file(uri);
      },
      allowSelection: (uri) => context.consent.require(uri),
    });
    if (prepared === undefined) return this.panel.showNotice(`/${name} was not sent: an input was cancelled.`);
    if (prepared.notes.length > 0) this.panel.showNotice(prepared.notes.join(" "));
    for (const attachment of prepared.attachments) this.panel.session.attach(attachment);
    this.deps.log.info(`chat: /${name} from ${file.value.source}${target ? ` (agent: ${target})` : ""}`);
    const run: AgentRun = { ...(prepared.tools ? { tools: prepared.tools } : {}), ...(prepared.models.length ? { models: prepared.models } : {}) };
    if (target !== undefined) await this.useAgent(target);
    if (this.panel.agent.mode === "ask") return this.ask(prepared.text, run);
    return this.startTask(prepared.text, { ...this.selectedRun(), ...run });
  }

  /** A question or a task, as the switch says. */
  private async sendInMode(text: string): Promise<void> {
    if (this.panel.agent.mode === "agent") return this.startTask(text);
    return this.ask(text, {});
  }

  private async ask(text: string, run: AgentRun): Promise<void> {
    const chatId = this.deps.store.active().id;
    if (!(await this.compactIfFull(text))) return;
    if (run.models?.length) {
      const chosen = chooseModel(run.models, this.modelIds());
      if (chosen.modelNotice) this.panel.showNotice(chosen.modelNotice);
      this.askRuns.set(chatId, run);
    }
    try {
      await this.panel.ask(text);
    } finally {
      this.askRuns.delete(chatId);
    }
  }

  /** Starts a task; once it ended, its answer records the agent that gave it, and that agent's handoffs. */
  private async startTask(text: string, run?: AgentRun): Promise<void> {
    const chatId = this.deps.store.active().id;
    if (!(await this.panel.agent.start(text, run))) return;
    const agentName = this.panel.agent.runOf(chatId).agent;
    const agent = agentName ? this.deps.selection.find(agentName) : undefined;
    const chat = this.deps.store.get(chatId);
    const answer = chat && lastAnswer(chat);
    if (!agent || !chat || !answer?.agent) return;
    // A refused or failed task hands nothing on.
    const tagged: AssistantTurn = { ...answer, customAgent: { name: agent.name, handoffs: answer.agent.end === "done" ? agent.handoffs : [] } };
    this.deps.store.put(withTurn(chat, tagged, Date.now()));
    this.panel.postState();
  }

  /** Sets the switch to an agent: ask, agent, plan or a custom agent's name. */
  private async useAgent(target: string): Promise<void> {
    if (target === "ask") return this.panel.agent.setMode("ask");
    const agent = target === "agent" ? undefined : this.deps.selection.find(target);
    if (target !== "agent" && agent === undefined) throw new Error(`There is no agent named "${target}".`);
    await this.deps.selection.select(agent ? idOf(agent) : undefined);
    await this.panel.agent.setMode("agent");
    this.panel.postState();
  }

  /** A handoff button: the answer goes along (attached), and the agent named goes on with the prompt. */
  private async handoff(turnId: string, index: number): Promise<void> {
    const chat = this.deps.store.active();
    const turn = chat.turns.find((t): t is AssistantTurn => t.id === turnId && t.role === "assistant");
    const handoff = turn?.customAgent?.handoffs[index];
    if (!turn || !handoff) return this.panel.showNotice("That handoff is no longer available.");
    await this.useAgent(handoff.agent);
    const lines = turn.text.split("\n").length;
    const answer: CodeAttachment = { id: this.deps.newId(), path: `${turn.customAgent!.name}.md`, language: "markdown", startLine: 1, endLine: lines, text: turn.text, source: "answer", label: `The answer of ${turn.customAgent!.name}` };
    this.panel.session.attach(answer);
    if (!handoff.send) {
      void this.deps.post({ type: "setDraft", text: handoff.prompt });
      return this.panel.postState();
    }
    return this.panel.agent.mode === "ask" ? this.ask(handoff.prompt, {}) : this.startTask(handoff.prompt);
  }

  private async compact(auto: boolean, focus?: string): Promise<CompactionResult> {
    const chat = this.deps.store.active();
    this.deps.log.info(`chat: compacting ${chat.turns.length} turns${auto ? " (the context is nearly full)" : ""}`);
    const result = await this.compactor.compact(chat.id, { auto, ...(focus ? { focus } : {}) });
    if (result.ok) this.panel.postState();
    return result;
  }

  /**
   * Compacts first when the question would bring the conversation near the model's context
   * (wisp.chat.autoCompact). False: the user stopped the compaction, so the question is not sent
   * either (they stopped what the send started); it goes back to the prompt box to send again.
   * A failed compaction still sends it, as it would have gone without one.
   */
  private async compactIfFull(text: string): Promise<boolean> {
    const percent = this.deps.settings.value.chat.autoCompact;
    const chat = this.deps.store.active();
    if (percent <= 0 || !chat.turns.some((t) => t.role === "user")) return true;
    const turns = withUserTurn(chat, { id: "next", role: "user", text, attachments: chat.pending, createdAt: Date.now() }).turns;
    let planned;
    try {
      planned = planChatRequest(await this.panel.setup({ ...chat, turns }), turns);
    } catch {
      return true; // No model or key: the question itself says what is wrong.
    }
    if (!nearlyFull(planned, percent)) return true;
    const result = await this.compact(true);
    if (result.ok) return true;
    if (!result.stopped) {
      this.panel.showNotice(result.reason);
      return true;
    }
    await this.panel.restoreDraft(chat.id, text);
    this.panel.showNotice("Compacting was stopped, so your question was not sent: it is back in the prompt box.");
    return false;
  }

  private modelIds(): string[] {
    return this.panel.models.all.map((m) => m.id);
  }

  /** The folders whose rules an Ask question carries (see askParts). */
  private ruleFolders(paths: readonly string[]): readonly vscode.WorkspaceFolder[] {
    const all = vscode.workspace.workspaceFolders ?? [];
    const named = foldersNamedBy(paths, folderNames()).map((i) => all[i]!);
    if (named.length > 0) return named;
    if (all.length <= 1) return all;
    const editor = this.deps.editor()?.document.uri;
    const own = editor && vscode.workspace.getWorkspaceFolder(editor);
    return own ? [own] : all;
  }
}

/** The rules of each folder, named as the chat names files (`beta/AGENTS.md` with several folders). */
async function rulesOf(folders: readonly vscode.WorkspaceFolder[], names: readonly string[], isSensitive: (uri: vscode.Uri) => boolean): Promise<RuleFile[]> {
  const read = await Promise.all(folders.map(async (folder) => (await loadRules(folder.uri, isSensitive)).map((rule) => ({ ...rule, path: workspacePathOf(names, folder.index, rule.path) }))));
  return read.flat();
}
