import { errorActions } from "../../core/chat/error-actions";
import type { ErrorAction, HostMessage, ViewState } from "../../core/chat/protocol";
import { codeActionFor } from "./code-blocks";
import { Composer } from "./composer";
import { ConversationView } from "./conversation-view";
import { button, el } from "./dom";
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
  private state: ViewState | undefined;
  private noticeTimer: ReturnType<typeof setTimeout> | undefined;
  private viewSave: { timer: ReturnType<typeof setTimeout>; chatId: string } | undefined;

  constructor(private readonly host: Host, root: HTMLElement) {
    const post = host.post.bind(host);
    this.header = new Header(post, () => post({ type: "viewAsCode", draft: this.composer.draft }));
    this.conversation = new ConversationView(
      () => this.saveView(),
      () => post({ type: "ready" }),
    );
    this.snippets = new SnippetPanel((text) => post({ type: "copyText", text }));
    this.composer = new Composer({
      send: (text) => post({ type: "send", text }),
      stop: () => post({ type: "stop" }),
      removeAttachment: (id) => post({ type: "removeAttachment", id }),
      draftChanged: () => this.saveView(),
    });
    root.append(this.header.element, this.banner, this.snippets.element, this.conversation.element, this.notice, this.composer.element);
    root.addEventListener("click", (event) => this.click(event));
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
    }
  }

  private show(state: ViewState): void {
    const switched = state.chat.id !== this.state?.chat.id;
    if (switched) this.flushViewSave();
    this.state = state;
    this.header.show(state);
    this.showBanner(state);
    this.conversation.show(state.chat, { streaming: state.streaming, serverIsLocal: state.serverIsLocal }, switched ? state.view.scrollTop : undefined);
    if (switched) this.composer.setDraft(state.view.draft);
    this.composer.show(state.chat.pending, state.streaming);
    if (state.notice && state.notice.id > this.host.page.noticeSeen) this.showNotice(state.notice.id, state.notice.text);
  }

  /** Problems listing models: what went wrong and what to do, instead of an empty model list. */
  private showBanner(state: ViewState): void {
    const error = state.modelsError;
    this.banner.hidden = error === undefined;
    if (error === undefined) return;
    const actions = errorActions(error.kind, { local: state.serverIsLocal }).map((a) => button(a.label, { "data-error-action": a.action === "retry" ? "refreshModels" : a.action }));
    this.banner.replaceChildren(el("p", {}, `Cannot list the server's models: ${error.message}`), el("div", { className: "actions" }, ...actions));
  }

  private showNotice(id: number, text: string): void {
    this.host.update({ noticeSeen: id });
    this.notice.replaceChildren(el("span", {}, text), button("Dismiss", { className: "dismiss" }, "×"));
    this.notice.hidden = false;
    clearTimeout(this.noticeTimer);
    this.noticeTimer = setTimeout(() => (this.notice.hidden = true), noticeMs);
  }

  private click(event: MouseEvent): void {
    const target = event.target instanceof Element ? event.target : null;
    if (!target) return;
    const code = codeActionFor(target);
    if (code) return this.host.post({ type: "codeAction", ...code });
    const turnAction = target.closest<HTMLElement>("[data-turn-action]");
    if (turnAction) {
      const turnId = turnAction.closest<HTMLElement>("[data-turn-id]")?.dataset.turnId;
      if (turnAction.dataset.turnAction === "copy" && turnId) this.host.post({ type: "copyAnswer", turnId });
      if (turnAction.dataset.turnAction === "regenerate") this.host.post({ type: "regenerate" });
      return;
    }
    const errorAction = target.closest<HTMLElement>("[data-error-action]")?.dataset.errorAction;
    if (errorAction === "refreshModels") return this.host.post({ type: "refreshModels" });
    if (errorAction) return this.host.post({ type: "errorAction", action: errorAction as ErrorAction });
    if (target.closest(".notice .dismiss")) this.notice.hidden = true;
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
