/**
 * Re-indents the lines of a reply to the block they replace. The reply's first non-blank line is
 * taken to sit at the block's indentation, and every other line keeps its depth relative to it;
 * deciding from the first line alone keeps lines already shown unchanged while the reply streams.
 */

import { indentString, indentWidth } from "../completion/cursor-context";

export interface IndentStyle {
  /** The leading whitespace of the block's first non-blank line. */
  readonly target: string;
  readonly useTabs: boolean;
  readonly tabSize: number;
}

export function leadingWhitespace(line: string): string {
  return /^[ \t]*/.exec(line)![0];
}

/** The style of an original block: its first non-blank line's indentation. */
export function indentStyleOf(original: readonly string[], options: { useTabs: boolean; tabSize: number }): IndentStyle {
  const first = original.find((line) => line.trim() !== "") ?? "";
  return { target: leadingWhitespace(first), ...options };
}

/**
 * A re-indenter fed line by line (the first non-blank line fixes the shift). Blank lines become
 * empty; a line already at the target indentation is left as it is.
 */
export class Reindenter {
  private base: number | undefined;
  private readonly targetWidth: number;

  constructor(private readonly style: IndentStyle) {
    this.targetWidth = indentWidth(style.target, style.tabSize);
  }

  line(text: string): string {
    if (text.trim() === "") return "";
    const own = leadingWhitespace(text);
    const { style } = this;
    const width = indentWidth(own, style.tabSize);
    this.base ??= width;
    const relative = width - this.base;
    const body = text.slice(own.length);
    if (relative >= 0) return style.target + this.whitespace(relative) + body;
    return this.whitespace(this.targetWidth + relative) + body;
  }

  private whitespace(width: number): string {
    return indentString(width, !this.style.useTabs, this.style.tabSize);
  }
}

export function reindentLines(lines: readonly string[], style: IndentStyle): string[] {
  const reindenter = new Reindenter(style);
  return lines.map((line) => reindenter.line(line));
}
