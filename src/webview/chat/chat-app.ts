import { errorActions } from "../../core/chat/error-actions";
import type { HostMessage, Notice, ViewState } from "../../core/chat/protocol";
import { RedoBar } from "./checkpoint-view";
import { Composer } from "./composer";
import { ConversationView } from "./conversation-view";
import { actionButton, el } from "./dom";
import { Header } from "./header";
import { SnippetPanel } from "./snippet-panel";
import type { Host } from "./vscode-api";

const noticeMs = 8000;
/** Pause after scrolling or typing before the position and draft are saved. */
const saveViewMs = 200;

/** The chat page: toolbar, model-list problems, conversation, View as Code, notices, prompt box. */
export class ChatApp {
  private readonly header: Header;
  private readonly banner = el("div", { className: "banner", role: "alert", hidden: true });
  private readonly conversation: ConversationView;
  private readonly snippets: SnippetPanel;
  private readonly notice = el("div", { className: "notice", role: "status", "aria-live": "polite", hidden: true });
  private readonly composer: Composer;
  private readonly redo: RedoBar;
  private state: ViewState | undefined;
  private noticeTimer: ReturnType<typeof setTimeout> | undefined;
  private viewSave: { timer: ReturnType<typeof setTimeout>; chatId: string } | undefined;

  constructor(private readonly host: Host, root: HTMLElement) {
    const post = host.post.bind(host);
    this.header = new Header(post, () => post({ type: "viewAsCode", draft: this.composer.draft }));
    this.conversation = new ConversationView(
      () => this.saveView(),
      () => post({ type: "ready" }),
      post,
      () => this.composer.focus(),
    );
    this.snippets = new SnippetPanel((text) => post({ type: "copyText", text }), () => this.composer.focus());
    this.composer = new Composer({
      send: (text) => post({ type: "send", text }),
      stop: () => post({ type: "stop" }),
      removeAttachment: (id) => post({ type: "removeAttachment", id }),
      draftChanged: () => this.saveView(),
      setMode: (mode, agent) => post({ type: "setMode", mode, ...(agent ? { agent } : {}) }),
    }, post);
    this.redo = new RedoBar(post, () => this.composer.focus());
    root.append(this.header.element, this.banner, this.snippets.element, this.conversation.element, this.redo.element, this.notice, this.composer.element);
    window.addEventListener("message", (event: MessageEvent<HostMessage>) => this.receive(event.data));
    post({ type: "ready" });
  }

  private receive(message: HostMessage): void {
    switch (message.type) {
      case "state":
        return this.show(message.state);
      case "delta":
        if (message.chatId === this.conversation.chatId) this.conversation.delta(message.turnId, message.offset, message.text);
        return;
      case "snippets":
        return this.snippets.show(message.snippets, message.note);
      case "focusPrompt":
        return this.composer.focus();
      case "mentionItems":
        return this.composer.showMentions(message.requestId, message.items);
      case "setDraft":
        this.composer.setDraft(message.text);
        this.composer.focus();
        return this.saveView();
      case "viewSaved":
        // What a reload restores, on the page for whoever waits for it (the e2e tests).
        if (message.chatId === this.conversation.chatId) this.conversation.element.dataset.savedScrollTop = String(message.scrollTop);
        return;
    }
  }

  private show(state: ViewState): void {
    const switched = state.chat.id !== this.state?.chat.id;
    // The prompt box is drawn before the first chat comes: what was typed in it is kept, not the saved draft.
    const typedFirst = this.state === undefined && this.composer.draft !== "";
    if (switched) this.flushViewSave();
    this.state = state;
    this.header.show(state);
    this.showBanner(state);
    this.conversation.show(state.chat, { streaming: state.streaming, serverIsLocal: state.serverIsLocal, embeddedOnly: state.embeddedOnly === true, ...(state.checkpoints ? { checkpoints: state.checkpoints } : {}) }, switched ? state.view.scrollTop : undefined);
    this.redo.show(state);
    if (switched && !typedFirst) this.composer.setDraft(state.view.draft);
    this.composer.show(state.chat.pending, state.streaming, state.mode);
    this.composer.showCustomization(state.commands, state.agents, state.agentId);
    // A notice of a new activation is new whatever its id: the host counts from 1 again.
    const { noticeSeen, noticeSession } = this.host.page;
    if (state.notice && (state.notice.session !== noticeSession || state.notice.id > noticeSeen)) this.showNotice(state.notice);
    if (typedFirst) this.saveView();
  }

  /** Problems listing models: what went wrong and what to do, instead of an empty model list. */
  private showBanner(state: ViewState): void {
    const error = state.modelsError;
    this.banner.hidden = error === undefined;
    if (error === undefined) return;
    // Here Retry lists the models again: there is no answer to ask for again.
    const actions = errorActions(error.kind, { local: state.serverIsLocal }).map((a) =>
      actionButton(a.label, () => this.host.post(a.action === "retry" ? { type: "refreshModels" } : { type: "errorAction", action: a.action })),
    );
    this.banner.replaceChildren(el("p", {}, `Cannot list the server's models: ${error.message}`), el("div", { className: "actions" }, ...actions));
  }

  private showNotice({ id, session, text }: Notice): void {
    this.host.update({ noticeSeen: id, noticeSession: session });
    this.notice.replaceChildren(el("span", {}, text), actionButton("Dismiss", () => this.hideNotice(), { className: "dismiss" }, "×"));
    this.notice.hidden = false;
    clearTimeout(this.noticeTimer);
    this.noticeTimer = setTimeout(() => this.hideNotice(true), noticeMs);
  }

  /** `timedOut`: a notice the keyboard is on stays until it leaves (read out, Dismiss reached). */
  private hideNotice(timedOut = false): void {
    const focused = this.notice.contains(document.activeElement);
    if (timedOut && focused) {
      this.notice.addEventListener("focusout", () => {
        clearTimeout(this.noticeTimer);
        this.noticeTimer = setTimeout(() => this.hideNotice(true), noticeMs);
      }, { once: true });
      return;
    }
    this.notice.hidden = true;
    if (focused) this.composer.focus();
  }

  /** Saves the shown chat's scroll position and draft with the extension, after a short pause. */
  private saveView(): void {
    const chatId = this.conversation.chatId;
    if (chatId === undefined) return;
    if (this.viewSave?.chatId !== chatId) this.flushViewSave();
    else clearTimeout(this.viewSave.timer);
    this.viewSave = { chatId, timer: setTimeout(() => this.flushViewSave(), saveViewMs) };
  }

  private flushViewSave(): void {
    const pending = this.viewSave;
    if (pending === undefined) return;
    clearTimeout(pending.timer);
    this.viewSave = undefined;
    // Only the chat still shown has its scroll position and draft on the page.
    if (pending.chatId !== this.conversation.chatId) return;
    this.host.post({ type: "viewState", chatId: pending.chatId, scrollTop: Math.round(this.conversation.scrollTop), draft: this.composer.draft });
  }
}
