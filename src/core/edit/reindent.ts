/**
 * Re-indents the lines of a reply to the block they replace. The reply's first non-blank line is
 * taken to sit at the block's indentation, and every other line keeps its depth relative to it;
 * deciding from the first line alone keeps lines already shown unchanged while the reply streams.
 */

export interface IndentStyle {
  /** The leading whitespace of the block's first non-blank line. */
  readonly target: string;
  readonly useTabs: boolean;
  readonly tabSize: number;
}

export function leadingWhitespace(line: string): string {
  return /^[ \t]*/.exec(line)![0];
}

function columns(whitespace: string, tabSize: number): number {
  let width = 0;
  for (const c of whitespace) width = c === "\t" ? width + tabSize - (width % tabSize) : width + 1;
  return width;
}

function whitespaceOf(width: number, style: IndentStyle): string {
  if (width <= 0) return "";
  return style.useTabs ? "\t".repeat(Math.floor(width / style.tabSize)) + " ".repeat(width % style.tabSize) : " ".repeat(width);
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

  constructor(private readonly style: IndentStyle) {}

  line(text: string): string {
    if (text.trim() === "") return "";
    const own = leadingWhitespace(text);
    const { style } = this;
    this.base ??= columns(own, style.tabSize);
    const relative = columns(own, style.tabSize) - this.base;
    const targetWidth = columns(style.target, style.tabSize);
    const body = text.slice(own.length);
    if (relative >= 0) return style.target + (relative === 0 ? "" : whitespaceOf(relative, style)) + body;
    return whitespaceOf(targetWidth + relative, style) + body;
  }
}

export function reindentLines(lines: readonly string[], style: IndentStyle): string[] {
  const reindenter = new Reindenter(style);
  return lines.map((line) => reindenter.line(line));
}
