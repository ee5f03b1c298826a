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

/** The steps taken for one level of a reply indented with spaces (others, as 5 under a parenthesis, are alignment). */
const levelSteps = new Set([2, 4, 8]);

/**
 * A re-indenter fed line by line (the first non-blank line fixes the shift). Blank lines become
 * empty; a line already at the target indentation is left as it is. For a block indented with
 * tabs, a reply indented with spaces (chat answers often use two) keeps its levels, not its
 * columns: each of its steps becomes a tab, its first step telling how wide one is.
 */
export class Reindenter {
  private base: number | undefined;
  /** Columns of one level of the reply's space indentation, once a line shows it. */
  private level: number | undefined;
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
    const relative = this.inLevels(width - this.base, own);
    const body = text.slice(own.length);
    if (relative >= 0) return style.target + this.whitespace(relative) + body;
    return this.whitespace(this.targetWidth + relative) + body;
  }

  /** `relative` columns of the reply as the block's columns: its space levels as tab stops. */
  private inLevels(relative: number, own: string): number {
    if (!this.style.useTabs || relative === 0 || own.includes("\t")) return relative;
    const step = Math.abs(relative);
    if (this.level === undefined && levelSteps.has(step)) this.level = step;
    if (this.level === undefined || this.level === this.style.tabSize) return relative;
    const levels = Math.trunc(relative / this.level);
    return levels * this.style.tabSize + (relative - levels * this.level);
  }

  private whitespace(width: number): string {
    return indentString(width, !this.style.useTabs, this.style.tabSize);
  }
}

export function reindentLines(lines: readonly string[], style: IndentStyle): string[] {
  const reindenter = new Reindenter(style);
  return lines.map((line) => reindenter.line(line));
}
