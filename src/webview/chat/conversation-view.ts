import { isEmbeddedModel } from "../../core/onboarding/embedded-models";
import { applyDelta } from "../../core/chat/protocol";
import type { Chat, ChatTurn } from "../../core/chat/conversation";
import type { CheckpointsView, ViewMessage } from "../../core/chat/protocol";
import { restoreInfos } from "./checkpoint-view";
import { announcementOf, Announcer } from "./announcer";
import { el } from "./dom";
import { TurnView, type TurnContext } from "./turn-view";

/** What the whole conversation is drawn with. */
export interface ViewContext {
  readonly streaming: boolean;
  readonly serverIsLocal: boolean;
  readonly embeddedOnly: boolean;
  readonly checkpoints?: CheckpointsView;
}

/** Pixels from the bottom within which the view follows a streaming answer. */
const followSlack = 40;

/**
 * The scrolling list of messages of the shown chat. Streamed text is applied at once and drawn
 * on the next animation frame (all deltas of a frame in one render).
 */
export class ConversationView {
  readonly element = el("main", { className: "conversation", tabindex: "0", "aria-label": "Conversation" });
  private readonly list = el("div", { className: "turns", role: "log", "aria-live": "off" });
  private readonly empty = el(
    "div",
    { className: "empty" },
    el("p", {}, "Ask about your code."),
    el("p", {}, "Select code and run Wisp: Ask About Selection (Ctrl+Alt+W), or right-click it for Wisp > Explain, Find Problems or Write Tests. Or just type below."),
    el("p", {}, "To change code in place, select it and run Wisp: Edit Selection (Ctrl+I, or the pencil above): the change shows as a diff in the file to accept or reject."),
  );
  private readonly announcer = new Announcer();
  private readonly views = new Map<string, TurnView>();
  private chat: Chat | undefined;
  private context: ViewContext = { streaming: false, serverIsLocal: false, embeddedOnly: false };
  private frame = 0;
  private follow = true;

  constructor(
    private readonly onScroll: () => void,
    private readonly onGap: () => void,
    /** What the buttons of the turns send. */
    private readonly post: (message: ViewMessage) => void,
    /** The focused button went with a redraw (an answered card, a chat switched) and nothing took its place. */
    private readonly onFocusLost: () => void,
  ) {
    this.element.append(this.empty, this.list, this.announcer.element);
    this.element.addEventListener("scroll", () => {
      this.follow = this.atBottom();
      this.onScroll();
    }, { passive: true });
  }

  get chatId(): string | undefined {
    return this.chat?.id;
  }

  get scrollTop(): number {
    return this.element.scrollTop;
  }

  /** Shows a chat (a full state); `scrollTop` restores where the user was in it. */
  show(chat: Chat, context: ViewContext, scrollTop: number | undefined): void {
    const switched = chat.id !== this.chat?.id;
    const follow = switched ? scrollTop === undefined : this.atBottom();
    if (switched) {
      this.views.clear();
      this.list.replaceChildren();
    }
    this.chat = chat;
    this.context = context;
    this.sync();
    this.empty.hidden = chat.turns.length > 0;
    if (switched && scrollTop !== undefined) this.element.scrollTop = scrollTop;
    this.follow = follow;
    if (follow) this.scrollToEnd();
  }

  /** Streamed text for an answer of the shown chat. */
  delta(turnId: string, offset: number, text: string): void {
    const chat = this.chat;
    const index = chat?.turns.findIndex((t) => t.id === turnId) ?? -1;
    const turn = chat?.turns[index];
    if (!chat || !turn) return;
    const applied = applyDelta(turn.text, offset, text);
    if (applied.gap) return this.onGap();
    this.chat = { ...chat, turns: chat.turns.map((t, i) => (i === index ? ({ ...t, text: applied.text } as ChatTurn) : t)) };
    this.frame ||= requestAnimationFrame(() => this.drawFrame());
  }

  private drawFrame(): void {
    this.frame = 0;
    const follow = this.follow;
    this.sync();
    if (follow) this.scrollToEnd();
  }

  /** Brings the turn views in line with the chat: new ones added, changed ones updated, gone ones removed. */
  private sync(): void {
    const chat = this.chat;
    if (!chat) return;
    const hadFocus = this.holdsFocus();
    const ids = new Set(chat.turns.map((t) => t.id));
    for (const [id, view] of this.views) {
      if (ids.has(id)) continue;
      view.element.remove();
      this.views.delete(id);
    }
    const lastIndex = chat.turns.length - 1;
    const firstAnswer = chat.turns.find((t) => t.role === "assistant" && !t.agent)?.id;
    const { checkpoints, embeddedOnly, ...shared } = this.context;
    const restore = restoreInfos(chat.turns, checkpoints, shared.streaming);
    let previous: Element | null = null;
    chat.turns.forEach((turn, index) => {
      const info = restore.get(turn.id);
      // The way out of the embedded models: under the chat's first answer, and under the agent's refusal.
      const wayOut = embeddedOnly && turn.role === "assistant" && turn.status !== "streaming" && isEmbeddedModel(turn.model) && (turn.agent ? turn.agent.end === "untrusted" : turn.id === firstAnswer);
      const context: TurnContext = { latest: index === lastIndex && turn.role === "assistant", ...shared, wayOut, ...(info ? { restore: info } : {}) };
      let view = this.views.get(turn.id);
      if (view) {
        const before = view.shown;
        view.update(turn, context);
        const words = announcementOf(before, turn, () => view!.spokenText());
        if (words !== undefined) this.announcer.say(words);
      } else {
        view = new TurnView(turn, context, this.post);
        this.views.set(turn.id, view);
      }
      const expected: Element | null = previous ? previous.nextElementSibling : this.list.firstElementChild;
      if (expected !== view.element) this.list.insertBefore(view.element, expected);
      previous = view.element;
    });
    this.list.setAttribute("aria-busy", String(this.context.streaming));
    if (hadFocus && !this.holdsFocus()) this.placeLostFocus();
  }

  private holdsFocus(): boolean {
    return document.activeElement !== this.list && this.list.contains(document.activeElement);
  }

  /** After an approval card is answered: the next card's first button, else whoever placed us. */
  private placeLostFocus(): void {
    const card = this.list.querySelector<HTMLElement>(".agent-approval button");
    if (card) card.focus();
    else this.onFocusLost();
  }

  private atBottom(): boolean {
    return this.element.scrollHeight - this.element.scrollTop - this.element.clientHeight <= followSlack;
  }

  private scrollToEnd(): void {
    this.element.scrollTop = this.element.scrollHeight;
  }
}
