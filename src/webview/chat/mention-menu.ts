import type { MentionItem, ViewMessage } from "../../core/chat/protocol";
import { activeMention, type ActiveMention } from "../../core/context/mentions";
import { el } from "./dom";

/**
 * The list that opens when `@` is typed in the prompt box: kinds first (@file, @symbol, …), then
 * the files or symbols of a kind as the user types. Arrow keys move, Enter or Tab picks, Escape
 * closes; a pick takes the typed `@…` out of the text and attaches what it names as a chip.
 */
export class MentionMenu {
  readonly element = el("ul", { className: "mention-menu", role: "listbox", id: "mention-menu", "aria-label": "Mentions", hidden: true });
  private items: readonly MentionItem[] = [];
  private active = 0;
  private mention: ActiveMention | undefined;
  private requestId = 0;

  constructor(
    private readonly input: HTMLTextAreaElement,
    private readonly post: (message: ViewMessage) => void,
  ) {
    input.setAttribute("aria-controls", this.element.id);
    input.setAttribute("aria-autocomplete", "list");
    input.addEventListener("input", () => this.update());
    input.addEventListener("click", () => this.update());
    input.addEventListener("blur", () => this.close());
  }

  get isOpen(): boolean {
    return !this.element.hidden;
  }

  /** The host's answer to a query; a late answer to an older query is ignored. */
  show(requestId: number, items: readonly MentionItem[]): void {
    if (requestId !== this.requestId || this.mention === undefined) return;
    this.items = items;
    this.active = 0;
    this.render();
  }

  /** Handles a key while the list is open; true when it was the list's. */
  handleKey(event: KeyboardEvent): boolean {
    if (!this.isOpen) return false;
    switch (event.key) {
      case "ArrowDown":
      case "ArrowUp": {
        const step = event.key === "ArrowDown" ? 1 : -1;
        this.active = (this.active + step + this.items.length) % Math.max(1, this.items.length);
        this.render();
        break;
      }
      case "Enter":
      case "Tab":
        if (this.items.length === 0) return false;
        this.pick(this.items[this.active]!);
        break;
      case "Escape":
        this.close();
        break;
      default:
        return false;
    }
    event.preventDefault();
    return true;
  }

  close(): void {
    this.mention = undefined;
    this.items = [];
    this.element.hidden = true;
    this.input.removeAttribute("aria-activedescendant");
    this.input.setAttribute("aria-expanded", "false");
  }

  private update(): void {
    const mention = activeMention(this.input.value, this.input.selectionStart ?? this.input.value.length);
    if (mention === undefined) return this.close();
    const same = this.mention?.start === mention.start && this.mention.kind === mention.kind && this.mention.query === mention.query;
    this.mention = mention;
    if (same) return;
    this.post({ type: "mentionQuery", requestId: ++this.requestId, kind: mention.kind ?? "", query: mention.query });
  }

  private pick(item: MentionItem): void {
    const mention = this.mention;
    if (mention === undefined) return;
    const caret = this.input.selectionStart ?? this.input.value.length;
    const before = this.input.value.slice(0, mention.start);
    const after = this.input.value.slice(caret);
    if (item.opensKind) {
      // `@fi` + pick @file -> `@file:`, and the list now offers files.
      const typed = `@${item.kind}:`;
      this.input.value = before + typed + after;
      this.input.setSelectionRange(before.length + typed.length, before.length + typed.length);
      this.update();
    } else {
      this.input.value = before + (before === "" || /\s$/.test(before) ? after.replace(/^ /, "") : after);
      this.input.setSelectionRange(before.length, before.length);
      this.close();
      this.post({ type: "addMention", id: item.id });
    }
    this.input.dispatchEvent(new Event("input"));
  }

  private render(): void {
    this.element.replaceChildren(
      ...this.items.map((item, i) => {
        const option = el(
          "li",
          { role: "option", id: `mention-${i}`, className: i === this.active ? "active" : "", "aria-selected": i === this.active ? "true" : "false" },
          el("span", { className: "mention-label" }, item.label),
          item.detail ? el("span", { className: "mention-detail" }, item.detail) : undefined,
        );
        // mousedown, not click: the prompt box keeps the focus (and the list stays open) until the pick.
        option.addEventListener("mousedown", (event) => {
          event.preventDefault();
          this.pick(item);
        });
        return option;
      }),
    );
    if (this.items.length === 0) this.element.append(el("li", { className: "mention-empty" }, "No matches"));
    this.element.hidden = false;
    this.input.setAttribute("aria-expanded", "true");
    if (this.items.length > 0) this.input.setAttribute("aria-activedescendant", `mention-${this.active}`);
    this.element.querySelector(".active")?.scrollIntoView({ block: "nearest" });
  }
}
