/** A half-open range of a text: [start, end). */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/**
 * The strings and comments of C-like code (`//`, `/* *\/`, and '…', "…", `…` literals)
 * and its brace blocks outside them. A lexical approximation, enough to tell code from prose and
 * to find the block a name lives in, for any language that writes blocks with braces.
 */
export class CodeRegions {
  /** Strings and comments, in order. */
  readonly prose: readonly Span[];
  /** Each `{`…`}` pair (start at `{`, end after `}`), innermost after the blocks that hold it. */
  readonly blocks: readonly Span[];

  constructor(private readonly text: string) {
    const prose: Span[] = [];
    const blocks: Span[] = [];
    const open: number[] = [];
    for (let i = 0; i < text.length; i++) {
      const end = proseEnd(text, i);
      if (end !== undefined) {
        prose.push({ start: i, end });
        i = end - 1;
      } else if (text[i] === "{") open.push(i);
      else if (text[i] === "}" && open.length > 0) blocks.push({ start: open.pop()!, end: i + 1 });
    }
    this.prose = prose;
    this.blocks = blocks.sort((a, b) => a.start - b.start);
  }

  inProse(offset: number): boolean {
    // Binary search: the predictor asks for many offsets of a long file.
    let low = 0;
    let high = this.prose.length - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const span = this.prose[mid]!;
      if (offset < span.start) high = mid - 1;
      else if (offset >= span.end) low = mid + 1;
      else return true;
    }
    return false;
  }

  /** The blocks around `offset`, innermost first. */
  blocksAround(offset: number): Span[] {
    return this.blocks.filter((b) => b.start < offset && offset < b.end).reverse();
  }

  /** The parameter list `(…)` right before the block that starts at `blockStart` (`f(a) {`, `(a): T => {`), if any. */
  paramsBefore(blockStart: number): Span | undefined {
    const head = /\)\s*(?::[^{};()]*)?(?:=>)?\s*$/.exec(this.text.slice(Math.max(0, blockStart - 200), blockStart));
    if (!head) return undefined;
    const close = blockStart - head[0].length;
    let depth = 0;
    for (let i = close; i >= 0; i--) {
      if (this.inProse(i)) continue;
      if (this.text[i] === ")") depth++;
      else if (this.text[i] === "(" && --depth === 0) return { start: i, end: close + 1 };
    }
    return undefined;
  }
}

/** Where the string or comment starting at `i` ends, or undefined when none starts there. */
function proseEnd(text: string, i: number): number | undefined {
  const c = text[i];
  if (c === "/" && text[i + 1] === "/") {
    const nl = text.indexOf("\n", i);
    return nl < 0 ? text.length : nl;
  }
  if (c === "/" && text[i + 1] === "*") {
    const close = text.indexOf("*/", i + 2);
    return close < 0 ? text.length : close + 2;
  }
  if (c !== '"' && c !== "'" && c !== "`") return undefined;
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === "\\") j++;
    else if (text[j] === c) return j + 1;
    // Only template literals span lines; an unclosed quote ends with its line.
    else if (text[j] === "\n" && c !== "`") return j;
  }
  return text.length;
}
