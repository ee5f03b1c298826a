import { mayDefineReferences, openCodeBlock, stablePrefixLength, type OpenCodeBlock } from "../../core/chat/stable-markdown";
import { decorateCodeBlocks, type CodeBlockAction } from "./code-blocks";
import { el } from "./dom";
import { GrowingCode } from "./growing-code";
import { renderMarkdown } from "./markdown";

/**
 * Markdown that grows while an answer streams. The part before the last safe cut is rendered
 * once into its own segment; each update re-renders only what follows it, so the work per frame
 * stays about the size of the block being written, not of the whole answer. A code block being
 * written grows in place instead (see GrowingCode): re-rendering it would highlight all its code
 * on every frame.
 */
export class StreamingMarkdown {
  readonly element = el("div", { className: "markdown" });
  private readonly tail = el("div", { className: "segment tail" });
  private text = "";
  private frozen = 0;
  /** Segments rendered before the tail (the text up to `frozen`). */
  private segments = 0;
  /** The code block growing at the end of the tail, and where its code starts in the text. */
  private growing: { readonly codeStart: number; readonly frozen: number; readonly code: GrowingCode } | undefined;

  constructor(
    private readonly onCodeAction: (request: CodeBlockAction) => void,
    private readonly onOpenFile: (path: string, line?: number) => void,
  ) {
    this.element.append(this.tail);
  }

  /** Shows `text`; `final` when no more will come (everything is then frozen). */
  update(text: string, final: boolean): void {
    if (!text.startsWith(this.text.slice(0, this.frozen))) this.reset();
    // Segments rendered before a reference definition came show its links as plain text: once
    // the answer is complete, render it whole, as a reload does.
    else if (final && this.segments + (text.length > this.frozen ? 1 : 0) > 1 && mayDefineReferences(text)) this.reset();
    this.text = text;
    const stable = final ? text.length : stablePrefixLength(text);
    if (stable > this.frozen) {
      const segment = el("div", { className: "segment" });
      segment.append(this.render(text.slice(this.frozen, stable)));
      this.element.insertBefore(segment, this.tail);
      this.frozen = stable;
      this.segments++;
    }
    const tail = text.slice(this.frozen);
    const open = final ? undefined : openCodeBlock(tail);
    if (open === undefined) {
      this.growing = undefined;
      this.tail.replaceChildren(this.render(tail));
    } else this.grow(tail, open);
    this.tail.classList.toggle("streaming", !final);
  }

  /** The tail ends in an open code block: the markdown before it is drawn once, the block grows. */
  private grow(tail: string, open: OpenCodeBlock): void {
    const codeStart = this.frozen + open.codeStart;
    const code = tail.slice(open.codeStart);
    if (this.growing?.codeStart !== codeStart || this.growing.frozen !== this.frozen || !this.growing.code.continues(code)) {
      const block = new GrowingCode(open.language);
      const fragment = renderMarkdown(tail.slice(0, open.fenceStart));
      fragment.append(block.pre);
      this.growing = { codeStart, frozen: this.frozen, code: block };
      this.tail.replaceChildren(this.decorate(fragment));
    }
    this.growing.code.update(code);
  }

  private reset(): void {
    this.element.replaceChildren(this.tail);
    this.frozen = 0;
    this.segments = 0;
    this.growing = undefined;
  }

  private render(text: string): DocumentFragment {
    return this.decorate(renderMarkdown(text));
  }

  /** Code block bars and file links on rendered markdown. */
  private decorate(fragment: DocumentFragment): DocumentFragment {
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
