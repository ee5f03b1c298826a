/** A half-open range of a text: [start, end). */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/**
 * The strings and comments of C-like code (`//`, `/* *\/`, and '…', "…", `…` literals, less the
 * code in a template literal's `${…}`) and its brace blocks outside them. A lexical approximation, enough to tell code from prose and
 * to find the block a name lives in, for any language that writes blocks with braces.
 */
export class CodeRegions {
  /** Strings and comments, in order. */
  readonly prose: readonly Span[];
  /** Each `{`…`}` pair (start at `{`, end after `}`), innermost after the blocks that hold it. */
  readonly blocks: readonly Span[];
  /** For each block, the index of the innermost block holding it, -1 for none. */
  private readonly parents: readonly number[];

  constructor(private readonly text: string) {
    const prose: Span[] = [];
    const blocks: Span[] = [];
    const open: number[] = [];
    // For each template literal's `${` still open, how many blocks were open at it: its `}` resumes the literal.
    const templates: number[] = [];
    for (let i = 0; i < text.length; i++) {
      if (text[i] === "`" || (text[i] === "}" && templates.at(-1) === open.length)) {
        const from = text[i] === "`" ? i : i + 1;
        if (text[i] === "}") templates.pop();
        // The literal's text is prose; the code in its `${…}` is code.
        const { end, interpolates } = templateEnd(text, i + 1);
        if (end > from) prose.push({ start: from, end });
        if (interpolates) templates.push(open.length);
        i = interpolates ? end + 1 : end - 1;
        continue;
      }
      const end = proseEnd(text, i);
      if (end !== undefined) {
        prose.push({ start: i, end });
        i = end - 1;
      } else if (text[i] === "{") open.push(i);
      else if (text[i] === "}" && open.length > 0) blocks.push({ start: open.pop()!, end: i + 1 });
    }
    this.prose = prose;
    this.blocks = blocks.sort((a, b) => a.start - b.start);
    // Blocks nest or follow each other: the ones still open at a block's start hold it.
    const holding: number[] = [];
    this.parents = this.blocks.map((block, index) => {
      while (holding.length > 0 && this.blocks[holding.at(-1)!]!.end <= block.start) holding.pop();
      const parent = holding.at(-1) ?? -1;
      holding.push(index);
      return parent;
    });
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
    // The last block opening before `offset`, then the blocks holding it: the predictor asks for many offsets.
    let low = 0;
    let high = this.blocks.length - 1;
    let index = -1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if (this.blocks[mid]!.start < offset) {
        index = mid;
        low = mid + 1;
      } else high = mid - 1;
    }
    const around: Span[] = [];
    for (; index >= 0; index = this.parents[index]!) if (offset < this.blocks[index]!.end) around.push(this.blocks[index]!);
    return around;
  }

  /** Whether `block` is the body of a class. */
  isClassBody(block: Span | undefined): boolean {
    return block !== undefined && /\bclass\b(?:\s+[\w$]+)?[^{};]*$/.test(this.text.slice(Math.max(0, block.start - 200), block.start));
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
  if (c !== '"' && c !== "'") return undefined;
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === "\\") j++;
    else if (text[j] === c) return j + 1;
    // An unclosed quote ends with its line.
    else if (text[j] === "\n") return j;
  }
  return text.length;
}

/** A template literal's text from `from` on: up to after its closing backquote, or up to the `${` that starts code. */
function templateEnd(text: string, from: number): { end: number; interpolates: boolean } {
  for (let j = from; j < text.length; j++) {
    if (text[j] === "\\") j++;
    else if (text[j] === "`") return { end: j + 1, interpolates: false };
    else if (text[j] === "$" && text[j + 1] === "{") return { end: j, interpolates: true };
  }
  return { end: text.length, interpolates: false };
}
