import type { ViewMessage, ViewState } from "../../core/chat/protocol";
import { button, el } from "./dom";

/** The toolbar: which chat (switch, new, rename, delete), which model, and View as Code. */
export class Header {
  readonly element = el("header", { className: "toolbar" });
  private readonly chats = el("select", { "aria-label": "Chat", title: "Switch chat" });
  private readonly models = el("select", { "aria-label": "Model", title: "Chat model" });
  private readonly modelInfo = el("span", { className: "model-info" });
  private chatId = "";

  constructor(post: (message: ViewMessage) => void, viewAsCode: () => void) {
    const row = (...children: Node[]) => el("div", { className: "row" }, ...children);
    const newChat = button("New Chat", { className: "icon" }, "+");
    const rename = button("Rename Chat", { className: "icon" }, "✎");
    const remove = button("Delete Chat", { className: "icon" }, "✕");
    const refresh = button("Refresh the model list", { className: "icon" }, "↻");
    const code = button("View as Code", {}, "View as Code");
    this.element.append(row(this.chats, newChat, rename, remove), row(this.models, refresh, code), this.modelInfo);
    this.chats.addEventListener("change", () => post({ type: "switchChat", id: this.chats.value }));
    this.models.addEventListener("change", () => post({ type: "selectModel", model: this.models.value }));
    newChat.addEventListener("click", () => post({ type: "newChat" }));
    rename.addEventListener("click", () => post({ type: "renameChat", id: this.chatId }));
    remove.addEventListener("click", () => post({ type: "deleteChat", id: this.chatId }));
    refresh.addEventListener("click", () => post({ type: "refreshModels" }));
    code.addEventListener("click", viewAsCode);
  }

  show(state: ViewState): void {
    this.chatId = state.chat.id;
    this.chats.replaceChildren(...state.chats.map((c) => el("option", { value: c.id, selected: c.id === state.chat.id }, c.title)));
    this.chats.value = state.chat.id;
    const models = state.models.length > 0 ? state.models : state.model ? [state.model] : [];
    const none = state.modelsListed ? "no models listed" : "listing models…";
    this.models.replaceChildren(...(models.length > 0 ? models.map((m) => el("option", { value: m }, m)) : [el("option", { value: "" }, none)]));
    this.models.value = state.model;
    this.models.disabled = models.length === 0;
    const { temperature, maxTokens, contextTokens, contextSource } = state.setup;
    const source = contextSource === "server" ? "" : contextSource === "setting" ? " (setting)" : " (assumed)";
    this.modelInfo.textContent = `temperature ${temperature} · max ${maxTokens} tokens · context ${contextTokens}${source}`;
  }
}
