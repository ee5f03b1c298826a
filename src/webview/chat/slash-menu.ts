import { activeSlashQuery, filterCommands, type SlashCommandItem } from "../../core/customization/slash-commands";
import { el } from "./dom";

/**
 * The list that opens when `/` starts the prompt box: Wisp's commands and the prompt files', as the
 * host listed them, filtered as the user types. Arrow keys move, Enter or Tab picks, Escape closes;
 * a pick puts `/name ` in the box for its argument. Like the @ list, a click picks too.
 */
export class SlashMenu {
  readonly element = el("ul", { className: "mention-menu slash-menu", role: "listbox", id: "slash-menu", "aria-label": "Commands", hidden: true });
  private commands: readonly SlashCommandItem[] = [];
  private items: readonly SlashCommandItem[] = [];
  private active = 0;
  /** Escape closed the list for this text: it stays closed until the text changes. */
  private dismissed: string | undefined;

  constructor(private readonly input: HTMLTextAreaElement) {
    input.addEventListener("input", () => this.update());
    input.addEventListener("click", () => this.update());
    input.addEventListener("blur", () => this.close());
  }

  get isOpen(): boolean {
    return !this.element.hidden;
  }

  /** The commands the host offers now (prompt files come and go). */
  setCommands(commands: readonly SlashCommandItem[]): void {
    if (JSON.stringify(commands) === JSON.stringify(this.commands)) return;
    this.commands = commands;
    if (this.isOpen) this.update();
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
        this.dismissed = this.input.value;
        this.close();
        break;
      default:
        return false;
    }
    event.preventDefault();
    return true;
  }

  close(): void {
    this.items = [];
    this.element.hidden = true;
    if (this.input.getAttribute("aria-controls") === this.element.id) {
      this.input.removeAttribute("aria-activedescendant");
      this.input.setAttribute("aria-expanded", "false");
    }
  }

  private update(): void {
    const query = activeSlashQuery(this.input.value, this.input.selectionStart ?? this.input.value.length);
    if (query === undefined || this.input.value === this.dismissed) return this.close();
    this.dismissed = undefined;
    const items = filterCommands(this.commands, query);
    const same = items.length === this.items.length && items.every((c, i) => c.name === this.items[i]?.name);
    this.items = items;
    if (!same || !this.isOpen) this.active = 0;
    this.render();
  }

  private pick(item: SlashCommandItem): void {
    const word = /^\/[\w.-]*/.exec(this.input.value)?.[0] ?? "";
    const rest = this.input.value.slice(word.length).replace(/^ /, "");
    const typed = `/${item.name} `;
    this.input.value = typed + rest;
    this.input.setSelectionRange(typed.length, typed.length);
    this.close();
    this.input.dispatchEvent(new Event("input"));
  }

  private render(): void {
    this.input.setAttribute("aria-controls", this.element.id);
    this.element.replaceChildren(
      ...this.items.map((item, i) => {
        const option = el(
          "li",
          { role: "option", id: `slash-${i}`, className: i === this.active ? "active" : "", "aria-selected": i === this.active ? "true" : "false", title: item.description },
          el("span", { className: "mention-label" }, `/${item.name}`),
          el("span", { className: "mention-detail" }, item.argumentHint ? `${item.description} — ${item.argumentHint}` : item.description),
        );
        // mousedown, not click: the prompt box keeps the focus until the pick.
        option.addEventListener("mousedown", (event) => {
          event.preventDefault();
          this.pick(item);
        });
        return option;
      }),
    );
    if (this.items.length === 0) this.element.append(el("li", { className: "mention-empty" }, "No commands match"));
    this.element.hidden = false;
    this.input.setAttribute("aria-expanded", "true");
    if (this.items.length > 0) this.input.setAttribute("aria-activedescendant", `slash-${this.active}`);
    this.element.querySelector(".active")?.scrollIntoView({ block: "nearest" });
  }
}
