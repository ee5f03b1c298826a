import type { MentionItem, ViewMessage } from "../../core/chat/protocol";
import { activeMention, type ActiveMention } from "../../core/context/mentions";
import { OptionList } from "./option-list";

/**
 * The list that opens when `@` is typed in the prompt box: kinds first (@file, @symbol, …), then
 * the files or symbols of a kind as the user types. Arrow keys move, Enter or Tab picks, Escape
 * closes; a pick takes the typed `@…` out of the text and attaches what it names as a chip.
 */
export class MentionMenu {
  private readonly list: OptionList<MentionItem>;
  private mention: ActiveMention | undefined;
  private requestId = 0;

  constructor(
    private readonly input: HTMLTextAreaElement,
    private readonly post: (message: ViewMessage) => void,
  ) {
    this.list = new OptionList(input, {
      id: "mention-menu",
      className: "mention-menu",
      ariaLabel: "Mentions",
      empty: "No matches",
      label: (item) => item.label,
      detail: (item) => item.detail,
      pick: (item) => this.pick(item),
      dismissed: () => (this.mention = undefined),
    });
    input.setAttribute("aria-controls", this.list.element.id);
    input.setAttribute("aria-autocomplete", "list");
    input.addEventListener("input", () => this.update());
    input.addEventListener("click", () => this.update());
    input.addEventListener("blur", () => this.close());
  }

  get element(): HTMLElement {
    return this.list.element;
  }

  get isOpen(): boolean {
    return this.list.isOpen;
  }

  /** The host's answer to a query; a late answer to an older query is ignored. */
  show(requestId: number, items: readonly MentionItem[]): void {
    if (requestId !== this.requestId || this.mention === undefined) return;
    this.list.show(items);
  }

  /** Handles a key while the list is open; true when it was the list's. */
  handleKey(event: KeyboardEvent): boolean {
    return this.list.handleKey(event);
  }

  close(): void {
    this.mention = undefined;
    this.list.close();
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
}
