import { stablePrefixLength } from "../../core/chat/stable-markdown";
import { decorateCodeBlocks, type CodeBlockAction } from "./code-blocks";
import { el } from "./dom";
import { renderMarkdown } from "./markdown";

/**
 * Markdown that grows while an answer streams. The part before the last safe cut is rendered
 * once into its own segment; each update re-renders only what follows it, so the work per frame
 * stays about the size of the block being written, not of the whole answer.
 */
export class StreamingMarkdown {
  readonly element = el("div", { className: "markdown" });
  private readonly tail = el("div", { className: "segment tail" });
  private text = "";
  private frozen = 0;

  constructor(
    private readonly onCodeAction: (request: CodeBlockAction) => void,
    private readonly onOpenFile: (path: string, line?: number) => void,
  ) {
    this.element.append(this.tail);
  }

  /** Shows `text`; `final` when no more will come (everything is then frozen). */
  update(text: string, final: boolean): void {
    if (!text.startsWith(this.text.slice(0, this.frozen))) this.reset();
    this.text = text;
    const stable = final ? text.length : stablePrefixLength(text);
    if (stable > this.frozen) {
      const segment = el("div", { className: "segment" });
      segment.append(this.render(text.slice(this.frozen, stable)));
      this.element.insertBefore(segment, this.tail);
      this.frozen = stable;
    }
    this.tail.replaceChildren(this.render(text.slice(this.frozen)));
    this.tail.classList.toggle("streaming", !final);
  }

  private reset(): void {
    this.element.replaceChildren(this.tail);
    this.frozen = 0;
  }

  private render(text: string): DocumentFragment {
    const fragment = renderMarkdown(text);
    decorateCodeBlocks(fragment, this.onCodeAction, this.onOpenFile);
    for (const link of fragment.querySelectorAll<HTMLElement>("a.file-link")) {
      const open = () => this.onOpenFile(link.dataset.path!, Number(link.dataset.line));
      link.addEventListener("click", (event) => (event.preventDefault(), open()));
      link.addEventListener("keydown", (event) => {
        if (event.key === "Enter") open();
      });
    }
    return fragment;
  }
}
