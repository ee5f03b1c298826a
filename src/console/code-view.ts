// "View code": the playground's request as curl, TypeScript or Python (openai SDK), with the
// base URL filled in and the key read from $WISP_API_KEY (never the real key), and a Copy button.
import { requestSnippet, snippetLanguages, type SnippetLanguage, type SnippetRequest } from "../core/snippets/request-snippets";
import { copyButton } from "./copy-button";
import { h } from "./dom";

const labels: Record<SnippetLanguage, string> = { curl: "curl", typescript: "TypeScript", python: "Python" };

export interface CodeSource {
  /** The request to show and a caption saying which one it is, or a reason there is none. */
  current(): { request: SnippetRequest; caption: string } | { problem: string };
}

export class CodeView {
  readonly element: HTMLElement;
  private language: SnippetLanguage = "curl";
  private readonly tabs = new Map<SnippetLanguage, HTMLButtonElement>();
  private readonly caption = h("p", { class: "hint code-caption" });
  private readonly code = h("code");
  private readonly pre = h("pre", { class: "code" }, this.code);

  constructor(private readonly baseUrl: string, private readonly source: CodeSource) {
    const bar = h("div", { class: "tabs small", attrs: { role: "tablist", "aria-label": "Language" } });
    for (const language of snippetLanguages) {
      const tab = h("button", { class: "tab", text: labels[language], attrs: { type: "button", role: "tab", "data-language": language }, on: { click: () => this.show(language) } });
      this.tabs.set(language, tab);
      bar.append(tab);
    }
    const env = h("p", { class: "hint" }, "Set the key first: ", h("code", { text: "export WISP_API_KEY=<a key from the Keys page>" }));
    this.element = h("section", { class: "code-view", attrs: { "aria-label": "View code" } }, h("div", { class: "row spread" }, bar, copyButton("Copy", () => this.code.textContent ?? "")), this.caption, this.pre, env);
    this.show("curl");
  }

  show(language: SnippetLanguage): void {
    this.language = language;
    for (const [l, tab] of this.tabs) tab.setAttribute("aria-selected", String(l === language));
    this.refresh();
  }

  refresh(): void {
    const current = this.source.current();
    if ("problem" in current) {
      this.caption.textContent = current.problem;
      this.code.textContent = "";
      this.pre.hidden = true;
      return;
    }
    this.caption.textContent = current.caption;
    this.code.textContent = requestSnippet(this.language, current.request, { baseUrl: this.baseUrl });
    this.pre.hidden = false;
  }
}
