import { errorActions, wayOutActions } from "../../core/chat/error-actions";
import type { AssistantTurn, ChatTurn, UserTurn } from "../../core/chat/conversation";
import { finishNote } from "../../core/chat/finish-note";
import { describeAttachment } from "../../core/chat/prompt";
import { answerText, splitThinking } from "../../core/chat/thinking";
import type { ViewMessage } from "../../core/chat/protocol";
import { actionButton, el } from "./dom";
import { StreamingMarkdown } from "./streaming-markdown";
import { agentFooter, agentKey, agentSteps, type OutputFolds } from "./agent-view";
import { todoPanel } from "./todo-view";
import { restoreControl, type RestoreInfo } from "./checkpoint-view";
import { compactionNote, handoffBar } from "./handoff-bar";
import { focusKey, refocus } from "./focus-key";
import { cutAt } from "../../core/base/surrogates";

export interface TurnContext {
  /** The newest answer of the chat (it gets Regenerate). */
  readonly latest: boolean;
  readonly streaming: boolean;
  readonly serverIsLocal: boolean;
  /** A user turn with a checkpoint: what Restore Checkpoint takes back. */
  readonly restore?: RestoreInfo;
  /** Show the one-line way out of the embedded models under this answer. */
  readonly wayOut: boolean;
}

/**
 * One message of the conversation. An answer's markdown is kept across updates: streamed text
 * re-renders only its growing end, and a change of status redraws only the header and footer.
 */
export class TurnView {
  readonly element: HTMLElement;
  private markdown: StreamingMarkdown | undefined;
  /** A reasoning model's <think> block, folded above the answer (hidden when there is none). */
  private readonly thinking = el("details", { className: "thinking", hidden: true }, el("summary", {}, "Thinking"), el("div", { className: "thinking-text" }));
  /** The header, notices and footer around an answer's markdown. */
  private around: ChildNode[] = [];
  private frame = "";
  /** Kept across redraws of the steps (each output chunk redraws them). */
  private readonly outputFolds: OutputFolds = new Map();

  constructor(private turn: ChatTurn, context: TurnContext, private readonly post: (message: ViewMessage) => void) {
    this.element = el("article", { className: `turn ${turn.role}` });
    this.update(turn, context);
  }

  get id(): string {
    return this.turn.id;
  }

  /** The turn as last drawn. */
  get shown(): ChatTurn {
    return this.turn;
  }

  /** An answer's words as a screen reader should hear them: the rendered text without the code blocks' buttons. */
  spokenText(): string {
    const copy = this.markdown?.element.cloneNode(true) as HTMLElement | undefined;
    for (const bar of copy?.querySelectorAll(".code-bar") ?? []) bar.remove();
    return copy?.textContent ?? "";
  }

  update(turn: ChatTurn, context: TurnContext): void {
    const frame = frameKey(turn, context);
    const textChanged = turn.text !== this.turn.text || this.markdown === undefined;
    this.turn = turn;
    if (turn.role === "user") {
      if (frame !== this.frame) this.redraw(() => this.element.replaceChildren(...userParts(turn, context.restore && restoreControl(turn.id, context.restore, this.post))));
      this.frame = frame;
      return;
    }
    if (this.markdown === undefined) {
      this.markdown = new StreamingMarkdown(
        (code) => this.post({ type: "codeAction", ...code }),
        (path, line) => this.post({ type: "openFile", path, ...(line === undefined ? {} : { line }) }),
      );
      this.element.replaceChildren(this.thinking, this.markdown.element);
    }
    if (textChanged || frame !== this.frame) {
      const split = splitThinking(turn.text);
      this.thinking.hidden = split.thinking === undefined;
      this.thinking.querySelector("summary")!.textContent = split.thinkingOpen && turn.status === "streaming" ? "Thinking…" : "Thinking";
      this.thinking.lastElementChild!.textContent = split.thinking ?? "";
      this.markdown.update(split.answer, turn.status !== "streaming");
    }
    if (frame === this.frame) return;
    this.frame = frame;
    const markdown = this.markdown.element;
    this.redraw(() => {
      // Only the parts around the markdown are replaced: detaching a long answer to re-append it
      // would restyle and lay out all of it again (a long task when a 2,000-token answer ends).
      for (const node of this.around) node.remove();
      const todos = turn.agent?.todos?.length ? todoPanel(turn.agent.todos, context.latest) : undefined;
      const above = [...answerHeader(turn), compactionNote(turn), todos, turn.agent ? agentSteps(turn.agent, this.post, this.outputFolds) : undefined].filter((n): n is HTMLElement => n !== undefined);
      const below = [...(turn.agent ? agentFooter(turn, turn.agent, context.latest, context.streaming, this.post) : []), handoffBar(turn, context.latest, context.streaming, this.post), ...answerFooter(turn, context, this.post)].filter((n): n is HTMLElement => n !== undefined);
      this.thinking.before(...above);
      markdown.after(...below);
      this.around = [...above, ...below];
    });
  }

  /** Rebuilds parts of the turn; the element focused in them, when it is built again, keeps the focus. */
  private redraw(build: () => void): void {
    const key = focusKey(this.element);
    build();
    if (key !== undefined) refocus(this.element, key);
  }
}

function answerHeader(turn: AssistantTurn): [HTMLElement, HTMLElement | undefined] {
  const header = el("header", { className: "turn-header" }, el("span", { className: "who" }, "Wisp"), turn.customAgent ? el("span", { className: "agent-name" }, turn.customAgent.name) : undefined, turn.model ? el("span", { className: "model" }, turn.model) : undefined);
  const n = turn.droppedMessages ?? 0;
  const dropped = n > 0 ? `${n} earlier message${n === 1 ? " was" : "s were"} left out to fit the model's context.` : "";
  const cuts = turn.contextCuts?.length ? `Cut to fit the model's context: ${turn.contextCuts.join("; ")}.` : "";
  const note = [dropped, cuts].filter((t) => t !== "").join(" ");
  return [header, note === "" ? undefined : el("p", { className: "dropped" }, note)];
}

function userParts(turn: UserTurn, restore?: { button: HTMLElement; confirm: HTMLElement }): Node[] {
  const parts: Node[] = [el("header", { className: "turn-header" }, el("span", { className: "who" }, "You"), restore?.button)];
  if (turn.text.trim() !== "") parts.push(el("div", { className: "user-text", dir: "auto" }, turn.text));
  if (turn.attachments.length > 0) {
    parts.push(el("ul", { className: "chips", "aria-label": "Attached code" }, ...turn.attachments.map((a) => el("li", { className: "chip", title: cutAt(a.text, 400) }, describeAttachment(a)))));
  }
  if (restore) parts.push(restore.confirm);
  return parts;
}

function answerFooter(turn: AssistantTurn, context: TurnContext, post: (message: ViewMessage) => void): HTMLElement[] {
  const parts: HTMLElement[] = [];
  if (turn.status === "error" && turn.error) {
    const actions = errorActions(turn.error.kind, { local: context.serverIsLocal });
    parts.push(
      el(
        "div",
        { className: "error", role: "alert" },
        el("p", {}, turn.error.message),
        el("div", { className: "actions" }, ...actions.map((a) => actionButton(a.label, () => post({ type: "errorAction", action: a.action })))),
      ),
    );
  }
  if (context.wayOut) {
    parts.push(
      el(
        "div",
        { className: "way-out" },
        el("span", {}, `${turn.model} is a tiny demo model. For real answers:`),
        ...wayOutActions.map((a) => actionButton(a.label, () => post({ type: "errorAction", action: a.action }))),
      ),
    );
  }
  const status = statusText(turn);
  const actions: Node[] = [];
  if (turn.status !== "streaming" && answerText(turn.text) !== "") actions.push(actionButton("Copy answer", () => post({ type: "copyAnswer", turnId: turn.id }), {}, "Copy"));
  if (context.latest && !context.streaming && turn.status !== "error" && !turn.agent && !turn.compaction) actions.push(actionButton("Regenerate", () => post({ type: "regenerate" })));
  parts.push(el("footer", { className: "turn-footer" }, status ? el("span", { className: `status ${turn.status}` }, status) : undefined, ...actions));
  return parts;
}

function statusText(turn: AssistantTurn): string {
  switch (turn.status) {
    case "streaming":
      if (turn.agent) return "Working…";
      return turn.text === "" ? "Waiting for the answer…" : "";
    case "stopped":
      return withUsage("Stopped", turn);
    case "interrupted":
      return "Interrupted: the window closed or reloaded while this answer was arriving.";
    case "error":
      return "";
    case "done":
      return withUsage(finishNote(turn), turn);
  }
}

function withUsage(prefix: string, turn: AssistantTurn): string {
  // Never below 0: a chat stored before durations were measured may end "before" it began (the clock set back).
  const seconds = turn.finishedAt ? (Math.max(0, turn.finishedAt - turn.createdAt) / 1000).toFixed(1) : undefined;
  const usage = turn.usage ? `${turn.usage.prompt_tokens} prompt + ${turn.usage.completion_tokens} answer tokens` : "no token usage reported";
  return [prefix, usage, seconds ? `${seconds} s` : ""].filter((p) => p !== "").join(" · ");
}

/** What a turn's frame (everything but an answer's text) depends on. */
function frameKey(turn: ChatTurn, context: TurnContext): string {
  if (turn.role === "user") return JSON.stringify([turn.text, turn.attachments.map((a) => a.id), context.restore]);
  return JSON.stringify([turn.status, turn.model, turn.usage, turn.error, turn.droppedMessages, turn.contextCuts, turn.finishedAt, turn.text === "", context, agentKey(turn.agent), turn.customAgent?.name, turn.compaction]);
}
