/**
 * Agent tasks in a chat: adds the task as the user's message, runs the loop into one assistant
 * turn (its steps, its changed files, its final answer), and stops, continues or ends it. The
 * store keeps every step, so the transcript survives a reload and keeps arriving while the view is
 * hidden. The tools themselves are a seam (the extension runs them in the workspace).
 */
import { stopwatch } from "../base/clock";
import type { AgentChatRequest, AgentMessage, ChatTool, ToolCall } from "../api/chat";
import type { ChatStore } from "../chat/chat-store";
import type { ChatSessionEvents } from "../chat/chat-session";
import { toChatError } from "../chat/chat-session";
import { buildMessages } from "../chat/prompt";
import { lastAnswer, withTurn, withUserTurn, type AssistantTurn, type Chat } from "../chat/conversation";
import { fitAgentMessages } from "./agent-context";
import { runAgentLoop, type AgentStream, type ToolOutcome, type ValidCall } from "./agent-loop";
import { emptyTask, withChangedFile, withReview, withStep, type AgentTask, type ToolStep } from "./agent-task";
import { carriedTodosNote, chatTodos, openTodos, todoReminder, todoToolName, updateTodos } from "./todo-list";

export interface AgentSetup {
  readonly model: string;
  readonly systemPrompt: string;
  readonly temperature: number;
  readonly maxTokens: number;
  readonly contextTokens: number;
  readonly maxSteps: number;
  /** The folder the task works in, named where the workspace has several. */
  readonly folder?: string;
}

/** What a running tool tells the transcript. */
export interface StepReporter {
  readonly stepId: string;
  /** The step as the transcript has it now. */
  current(): ToolStep | undefined;
  update(step: Partial<Omit<ToolStep, "kind" | "id">>): void;
  /** An edit the task made: the file's row gets the line counts (Keep/Undo work per file). */
  changed(path: string, added: number, removed: number, created: boolean): void;
}

export interface AgentTools {
  /**
   * The tools offered for this run (the workspace's, and those of MCP servers, started here; a
   * server's start may ask the user or fail, shown as steps made with `step`).
   */
  definitions(step: () => StepReporter, signal: AbortSignal): Promise<readonly ChatTool[]>;
  /**
   * The tools for the next step, when they can change during a task (an MCP server announced a
   * new list): the same array while they have not changed.
   */
  current?(): Promise<readonly ChatTool[]>;
  validate(call: ToolCall): { readonly ok: true; readonly args: Record<string, unknown> } | { readonly ok: false; readonly error: string };
  run(call: ValidCall, signal: AbortSignal, step: StepReporter): Promise<ToolOutcome>;
}

/** Which task a run is: its chat, its answer, and whether it goes on from an earlier run. */
export interface TaskRun {
  readonly chatId: string;
  readonly turnId: string;
  readonly resumed: boolean;
}

export interface AgentSessionDeps {
  readonly store: ChatStore;
  readonly stream: AgentStream;
  /** Model, prompt, tools and limits for the task; throws (with a `kind`) when there is none. */
  readonly setup: (task: TaskRun) => Promise<AgentSetup>;
  /** The tools for a task's run (a new task, or one going on). */
  readonly tools: (task: TaskRun) => Promise<AgentTools>;
  readonly events: ChatSessionEvents;
  readonly newId: () => string;
  readonly now: () => number;
  /** The monotonic clock a run's duration is measured on (performance.now when not given). */
  readonly clock?: () => number;
}

const tokensPerChar = 0.3;

export class AgentSession {
  private readonly running = new Map<string, AbortController>();

  constructor(private readonly deps: AgentSessionDeps) {}

  isRunning(chatId: string): boolean {
    return this.running.has(chatId);
  }

  /** The chats with a task running. */
  runningChats(): string[] {
    return [...this.running.keys()];
  }

  /** Starts a task in the active chat; resolves when it ended. False when nothing was started. */
  /** `refusal`: why the task is not carried out (shown as its answer); `refusedModel`: the model it names, if any. */
  async start(text: string, refusal?: string, refusedModel?: string): Promise<boolean> {
    const chat = this.deps.store.active();
    if (this.isRunning(chat.id) || text.trim() === "") return false;
    const question = { id: this.deps.newId(), role: "user" as const, text, attachments: chat.pending, createdAt: this.deps.now() };
    const next = withUserTurn(chat, question);
    // Written with the task's turn, which `run` stores at once: one write of the chat, not two.
    this.deps.store.put(next, "soon");
    const user = buildMessages("", [question]).at(-1)!;
    // A list with open items goes on with the conversation: shown with this task, and told to the model.
    const todos = chatTodos(chat);
    const carried = openTodos(todos).length > 0;
    const messages = carried ? [{ ...user, content: `${user.content}\n\n${carriedTodosNote(todos)}` }] : [user];
    await this.run(next, { ...emptyTask, messages, ...(carried ? { todos } : {}) }, refusal, undefined, refusedModel);
    return true;
  }

  /** Goes on with the chat's last task (after its step limit) for another round of steps. */
  async continue(chatId: string): Promise<boolean> {
    const chat = this.deps.store.get(chatId);
    const answer = chat && lastAnswer(chat);
    if (!chat || !answer?.agent || this.isRunning(chatId)) return false;
    await this.run(chat, { ...answer.agent, end: undefined } as AgentTask, undefined, answer);
    return true;
  }

  stop(chatId: string): void {
    this.running.get(chatId)?.abort();
  }

  /** Marks a task's changed files kept or undone (the caller did the undoing on disk). */
  review(chatId: string, turnId: string, review: "kept" | "undone", paths?: readonly string[]): void {
    const chat = this.deps.store.get(chatId);
    const turn = chat?.turns.find((t): t is AssistantTurn => t.id === turnId && t.role === "assistant");
    if (!chat || !turn?.agent) return;
    const agent = withReview(turn.agent, review, paths);
    // Nothing left to review (a task that changed no file): no write, on the next task's way to its first request.
    if (agent.files.every((f, i) => f === turn.agent!.files[i])) return;
    this.deps.store.put(withTurn(chat, { ...turn, agent }, this.deps.now()));
    this.deps.events.changed(chatId);
  }

  shutdown(): void {
    for (const controller of this.running.values()) controller.abort();
  }

  private async run(chat: Chat, task: AgentTask, refusal: string | undefined, resumed?: AssistantTurn, refusedModel = ""): Promise<void> {
    const { store, events } = this.deps;
    const controller = new AbortController();
    this.running.set(chat.id, controller);
    // The run's end is its start plus its measured length: the wall clock may be set back meanwhile.
    const begun = this.deps.now();
    const took = stopwatch(this.deps.clock);
    let turn: AssistantTurn = resumed
      ? { ...resumed, status: "streaming", agent: task }
      : { id: this.deps.newId(), role: "assistant", text: "", model: "", status: "streaming", createdAt: begun, agent: task };
    const save = (when: "now" | "soon" = "now", redraw = true) => {
      const current = store.get(chat.id);
      if (current === undefined) return controller.abort();
      store.put(withTurn(current, turn, this.deps.now()), when);
      if (redraw) events.changed(chat.id);
    };
    // A task's steps are stored in batches (as a streaming answer's text is), its end at once:
    // writing the whole chat on every step update took more of a step than the tool.
    const setTask = (next: AgentTask, when: "now" | "soon" = "soon") => {
      turn = { ...turn, agent: next };
      save(when);
    };
    save();
    try {
      if (refusal !== undefined) {
        turn = { ...turn, text: refusal, model: refusedModel, agent: { ...turn.agent!, end: "untrusted" } };
        return;
      }
      const run: TaskRun = { chatId: chat.id, turnId: turn.id, resumed: resumed !== undefined };
      const setup = await this.deps.setup(run);
      const tools = await this.deps.tools(run);
      turn = { ...turn, model: setup.model, agent: setup.folder === undefined ? turn.agent : { ...turn.agent!, folder: setup.folder } };
      let definitions = await tools.definitions(() => this.reporter(this.deps.newId(), () => turn.agent!, setTask), controller.signal);
      let toolsTokens = Math.ceil(JSON.stringify(definitions).length * tokensPerChar);
      let first = true;
      const request = async (messages: readonly AgentMessage[]): Promise<AgentChatRequest> => {
        // From the second step on, the tools as they are now: a list that changed is offered from here.
        const now = first || !tools.current ? definitions : await tools.current();
        first = false;
        if (now !== definitions) {
          definitions = now;
          toolsTokens = Math.ceil(JSON.stringify(definitions).length * tokensPerChar);
        }
        return requestBody(messages);
      };
      const requestBody = (messages: readonly AgentMessage[]): AgentChatRequest => {
        // Last, and only in this request: the prefix the server has cached stays the same.
        const reminder = todoReminder(turn.agent!.todos, messages);
        const conversation: AgentMessage[] = [{ role: "system", content: setup.systemPrompt }, ...messages, ...(reminder ? [{ role: "user" as const, content: reminder }] : [])];
        return {
          model: setup.model,
          messages: fitAgentMessages(conversation, { ...setup, tokensPerChar, toolsTokens }),
          tools: [...definitions],
          tool_choice: "auto",
          temperature: setup.temperature,
          max_tokens: setup.maxTokens,
          stream_options: { include_usage: true },
        };
      };
      const result = await runAgentLoop(
        {
          stream: this.deps.stream,
          request,
          validate: (call) => tools.validate(call),
          run: (call, signal) => {
            const step = this.reporter(this.deps.newId(), () => turn.agent!, setTask);
            return call.name === todoToolName ? Promise.resolve(this.todos(call.args, () => turn.agent!, setTask, step)) : tools.run(call, signal, step);
          },
          maxSteps: setup.maxSteps,
          events: {
            text: (delta) => {
              const offset = turn.text.length;
              turn = { ...turn, text: turn.text + delta };
              save(offset === 0 ? "now" : "soon", false);
              events.delta(chat.id, turn.id, offset, delta);
            },
            answered: (text, calls) => {
              if (calls.length === 0) return;
              // Text before tool calls becomes a step of the transcript; the next answer streams anew.
              const withText = text.trim() === "" ? turn.agent! : withStep(turn.agent!, { kind: "text", id: this.deps.newId(), text });
              turn = { ...turn, text: "" };
              setTask(withText);
            },
            rejected: (call, error) => setTask(withStep(turn.agent!, { kind: "tool", id: this.deps.newId(), tool: call.function.name || "(no name)", title: `${call.function.name || "a tool"}: not run`, status: "failed", note: error })),
          },
        },
        task.messages,
        controller.signal,
      );
      // The last answer's end: cut at max_tokens or by a filter, the line under the task says so.
      turn = { ...turn, agent: { ...turn.agent!, messages: result.messages, end: result.end }, ...(result.usage ? { usage: result.usage } : {}), ...(result.finishReason && result.finishReason !== "tool_calls" ? { finishReason: result.finishReason, maxTokens: setup.maxTokens } : {}) };
      if (result.end === "error") turn = { ...turn, status: "error", error: toChatError(result.error) };
      if (result.end === "repeated") events.notice("The agent made the same call 3 times in a row, so the task was stopped.");
    } catch (error) {
      turn = { ...turn, status: "error", error: toChatError(error), agent: { ...turn.agent!, end: "error" } };
    } finally {
      this.running.delete(chat.id);
      const end = turn.agent?.end;
      const status = turn.status === "error" ? "error" : end === "stopped" ? "stopped" : "done";
      turn = { ...turn, status, finishedAt: begun + Math.round(took()) };
      save();
      events.ended(chat.id, turn);
    }
  }

  /** manage_todo_list: the task's list replaced (shown at once), or the call refused with why. */
  private todos(args: Record<string, unknown>, task: () => AgentTask, setTask: (task: AgentTask, when?: "now" | "soon") => void, step: StepReporter): ToolOutcome {
    const update = updateTodos(task().todos ?? [], args);
    if (!update.ok) {
      step.update({ tool: todoToolName, title: "todo list not updated", status: "failed", note: update.error });
      return { content: update.error, isError: true };
    }
    setTask({ ...task(), todos: update.todos }, "now");
    step.update({ tool: todoToolName, title: update.title, status: "done" });
    return { content: update.content };
  }

  private reporter(stepId: string, task: () => AgentTask, setTask: (task: AgentTask, when?: "now" | "soon") => void): StepReporter {
    const current = () => task().steps.find((s): s is ToolStep => s.id === stepId && s.kind === "tool");
    return {
      stepId,
      current,
      update: (fields) => {
        const current_ = current();
        const base: ToolStep = current_ ?? { kind: "tool", id: stepId, tool: "", title: "", status: "running" };
        setTask(withStep(task(), { ...base, ...fields }));
      },
      // A changed file's row is stored at once: Keep and Undo must survive a reload right after the edit.
      changed: (path, added, removed, created) => setTask(withChangedFile(task(), path, added, removed, created), "now"),
    };
  }
}
