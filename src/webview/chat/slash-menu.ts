import { activeSlashQuery, commandWord, filterCommands, type SlashCommandItem } from "../../core/customization/slash-commands";
import { OptionList } from "./option-list";

/**
 * The list that opens when `/` starts the prompt box: Wisp's commands and the prompt files', as the
 * host listed them, filtered as the user types. A pick puts `/name ` in the box for its argument.
 */
export class SlashMenu {
  private readonly list: OptionList<SlashCommandItem>;
  private commands: readonly SlashCommandItem[] = [];
  /** Escape closed the list for this text: it stays closed until the text changes. */
  private dismissed: string | undefined;

  constructor(private readonly input: HTMLTextAreaElement) {
    this.list = new OptionList(input, {
      id: "slash-menu",
      className: "slash-menu",
      ariaLabel: "Commands",
      empty: "No commands match",
      label: (item) => `/${item.name}`,
      detail: (item) => (item.argumentHint ? `${item.description} — ${item.argumentHint}` : item.description),
      title: (item) => item.description,
      pick: (item) => this.pick(item),
      dismissed: () => (this.dismissed = input.value),
    });
    input.addEventListener("input", () => this.update());
    input.addEventListener("click", () => this.update());
    input.addEventListener("blur", () => this.list.close());
  }

  get element(): HTMLElement {
    return this.list.element;
  }

  /** The commands the host offers now (prompt files come and go). */
  setCommands(commands: readonly SlashCommandItem[]): void {
    if (JSON.stringify(commands) === JSON.stringify(this.commands)) return;
    this.commands = commands;
    if (this.list.isOpen) this.update();
  }

  handleKey(event: KeyboardEvent): boolean {
    return this.list.handleKey(event);
  }

  private update(): void {
    const query = activeSlashQuery(this.input.value, this.input.selectionStart ?? this.input.value.length);
    if (query === undefined || this.input.value === this.dismissed) return this.list.close();
    this.dismissed = undefined;
    const items = filterCommands(this.commands, query);
    const same = items.length === this.list.shown.length && items.every((c, i) => c.name === this.list.shown[i]?.name);
    this.list.show(items, same);
  }

  private pick(item: SlashCommandItem): void {
    const word = commandWord.exec(this.input.value)?.[0] ?? "";
    const rest = this.input.value.slice(word.length).replace(/^ /, "");
    const typed = `/${item.name} `;
    this.input.value = typed + rest;
    this.input.setSelectionRange(typed.length, typed.length);
    this.list.close();
    this.input.dispatchEvent(new Event("input"));
  }
}
