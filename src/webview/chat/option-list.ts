import { el } from "./dom";

export interface OptionListParts<T> {
  readonly id: string;
  readonly className: string;
  readonly ariaLabel: string;
  readonly empty: string;
  readonly label: (item: T) => string;
  readonly detail: (item: T) => string | undefined;
  readonly title?: (item: T) => string | undefined;
  readonly pick: (item: T) => void;
  /** Escape closed the list. */
  readonly dismissed: () => void;
}

/**
 * The list under a prompt box's typing (the @ list, the / list): options drawn as a listbox the
 * box controls, arrow keys moving the active one, Enter or Tab picking it, Escape closing, and a
 * click picking (on mousedown, so the box keeps the focus).
 */
export class OptionList<T> {
  readonly element: HTMLUListElement;
  private items: readonly T[] = [];
  private active = 0;

  constructor(
    private readonly input: HTMLTextAreaElement,
    private readonly parts: OptionListParts<T>,
  ) {
    this.element = el("ul", { className: parts.className, role: "listbox", id: parts.id, "aria-label": parts.ariaLabel, hidden: true });
  }

  get isOpen(): boolean {
    return !this.element.hidden;
  }

  get shown(): readonly T[] {
    return this.items;
  }

  /** Shows these options; the first is active unless `keepActive` and the list is open. */
  show(items: readonly T[], keepActive = false): void {
    if (!keepActive || !this.isOpen) this.active = 0;
    this.items = items;
    this.active = Math.min(this.active, Math.max(0, items.length - 1));
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
        this.parts.pick(this.items[this.active]!);
        break;
      case "Escape":
        this.parts.dismissed();
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
    if (this.input.getAttribute("aria-controls") !== this.element.id) return;
    this.input.removeAttribute("aria-activedescendant");
    this.input.setAttribute("aria-expanded", "false");
  }

  private render(): void {
    const { id, label, detail, title, pick, empty } = this.parts;
    this.input.setAttribute("aria-controls", id);
    this.element.replaceChildren(
      ...this.items.map((item, i) => {
        const text = detail(item);
        const option = el(
          "li",
          { role: "option", id: `${id}-${i}`, className: i === this.active ? "active" : "", "aria-selected": i === this.active ? "true" : "false", title: title?.(item) },
          el("span", { className: "mention-label" }, label(item)),
          text ? el("span", { className: "mention-detail" }, text) : undefined,
        );
        option.addEventListener("mousedown", (event) => {
          event.preventDefault();
          pick(item);
        });
        return option;
      }),
    );
    if (this.items.length === 0) this.element.append(el("li", { className: "mention-empty" }, empty));
    this.element.hidden = false;
    this.input.setAttribute("aria-expanded", "true");
    if (this.items.length > 0) this.input.setAttribute("aria-activedescendant", `${id}-${this.active}`);
    this.element.querySelector(".active")?.scrollIntoView({ block: "nearest" });
  }
}
