import { frozenCodeLength } from "../../core/chat/stable-markdown";
import { el } from "./dom";
import { highlightedCode } from "./markdown";

/**
 * A code block still being written, in the markup a rendered block has (`pre.code-block > code`).
 * Its complete lines are highlighted once, a chunk at a time; each frame highlights only the
 * rest, so a 1,500-line block costs a frame what a short one does.
 */
export class GrowingCode {
  readonly pre: HTMLPreElement;
  private readonly code: HTMLElement;
  private readonly rest = el("span");
  private frozen = "";

  constructor(private readonly language: string) {
    this.code = el("code", language === "" ? {} : { className: `language-${language}` }, this.rest);
    this.pre = el("pre", { className: "code-block" }, this.code);
  }

  /** Whether `code` goes on from what is highlighted for good (else the block is drawn anew). */
  continues(code: string): boolean {
    return code.startsWith(this.frozen);
  }

  /** Shows the block's code so far (from its first line); it must continue what was shown. */
  update(code: string): void {
    const language = this.language.toLowerCase();
    const frozen = frozenCodeLength(code, this.frozen.length);
    if (frozen > this.frozen.length) {
      this.rest.before(el("span", {}, highlightedCode(code.slice(this.frozen.length, frozen), language)));
      this.frozen = code.slice(0, frozen);
    }
    this.rest.replaceChildren(highlightedCode(code.slice(this.frozen.length), language));
  }
}
