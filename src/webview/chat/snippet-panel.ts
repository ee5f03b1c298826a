import type { CodeSnippet } from "../../core/chat/chat-request";
import { button, el } from "./dom";
import { highlightedCode } from "./markdown";

const highlightAs: Record<string, string> = { curl: "bash", typescript: "typescript", python: "python" };

/** View as Code: the chat's request as curl / TypeScript / Python, one tab each, with Copy. */
export class SnippetPanel {
  readonly element = el("section", { className: "snippets", role: "dialog", "aria-label": "View as Code", hidden: true });
  private readonly note = el("p", { className: "note" });
  private readonly tabs = el("div", { className: "tabs", role: "tablist", "aria-label": "Language" });
  private readonly code = el("code", { className: "hljs" });
  private readonly copy = button("Copy code", {}, "Copy");
  private snippets: readonly CodeSnippet[] = [];
  private selected = 0;
  /** What had the focus when the panel opened (its button), given it back on close. */
  private opener: HTMLElement | undefined;

  /** `closed`: where the focus goes on close when nothing on the page opened it (the palette's command did). */
  constructor(copyText: (text: string) => void, private readonly closed: () => void) {
    const close = button("Close View as Code", {}, "Close");
    this.element.append(el("div", { className: "snippets-bar" }, el("strong", {}, "View as Code"), this.tabs, this.copy, close), this.note, el("pre", { className: "snippet-code", tabindex: "0" }, this.code));
    close.addEventListener("click", () => this.hide());
    this.copy.addEventListener("click", () => {
      const snippet = this.snippets[this.selected];
      if (snippet) copyText(snippet.code);
    });
    this.tabs.addEventListener("click", (event) => {
      const index = (event.target as Element).closest<HTMLElement>("[data-index]")?.dataset.index;
      if (index !== undefined) this.select(Number(index));
    });
    this.tabs.addEventListener("keydown", (event) => {
      const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
      if (step === 0 || this.snippets.length === 0) return;
      this.select((this.selected + step + this.snippets.length) % this.snippets.length);
      this.tabs.querySelector<HTMLElement>(`[data-index="${this.selected}"]`)?.focus();
    });
    this.element.addEventListener("keydown", (event) => {
      if (event.key === "Escape") this.hide();
    });
  }

  show(snippets: readonly CodeSnippet[], note: string): void {
    const active = document.activeElement;
    if (active instanceof HTMLElement && active !== document.body && !this.element.contains(active)) this.opener = active;
    this.snippets = snippets;
    this.note.textContent = note;
    this.copy.hidden = snippets.length === 0;
    this.element.hidden = false;
    this.select(Math.min(this.selected, Math.max(0, snippets.length - 1)));
    this.tabs.querySelector<HTMLElement>(`[data-index="${this.selected}"]`)?.focus();
  }

  hide(): void {
    const hadFocus = this.element.contains(document.activeElement);
    this.element.hidden = true;
    if (!hadFocus) return;
    if (this.opener?.isConnected) this.opener.focus();
    else this.closed();
    this.opener = undefined;
  }

  private select(index: number): void {
    this.selected = index;
    this.tabs.replaceChildren(
      ...this.snippets.map((s, i) =>
        el("button", { type: "button", role: "tab", "data-index": i, "data-language": s.language, "aria-selected": String(i === index), tabindex: i === index ? "0" : "-1" }, s.label),
      ),
    );
    const snippet = this.snippets[index];
    this.code.dataset.language = snippet?.language ?? "";
    this.code.replaceChildren(snippet ? highlightedCode(snippet.code, highlightAs[snippet.language] ?? "") : "");
  }
}
