import { closedAfter, stateAtEnd, syntaxFor, type BracketState, type Syntax } from "./brackets";
import { maxSuffixChars } from "./document-window";
import type { CompletionInput } from "./types";

/** The cursor's surroundings, as post-processing and the line rules need them. */
export interface CursorContext {
  /** Text before the cursor on its line. */
  readonly linePrefix: string;
  /** Text after the cursor on its line. */
  readonly lineSuffix: string;
  /** The non-empty lines after the cursor line (a few), as they are (indentation matters). */
  readonly nextLines: readonly string[];
  /**
   * Multi-line suggestions only where a block is expected: on an empty line, or at the end of a
   * line that opens one (also before the closer the editor auto-inserted: `{|}`). Elsewhere at
   * the end of a line the user is mid-statement: one line, which the server can stop at its
   * first newline.
   */
  readonly multiline: boolean;
  /** Indentation width (columns) of the cursor line. */
  readonly lineIndent: number;
  /** The cursor line ends by opening a block: what follows is indented deeper. */
  readonly opensBlock: boolean;
  readonly syntax: Syntax;
  /** What is open at the cursor (brackets, strings). */
  readonly brackets: BracketState;
  /**
   * How many of those frames (innermost first) the text after the cursor already closes: with the
   * closers that start the rest of the line (which the editor auto-inserted, and a suggestion
   * replaces), and anywhere after the cursor. All of them when the text after the cursor is cut.
   */
  readonly closedOnLine: number;
  readonly closedInFile: number;
  /**
   * Not inside a word: on a fresh line, or after a space, an operator or punctuation. Where users
   * pause to think about what comes next (mid-word the next key usually follows at once).
   */
  readonly atBoundary: boolean;
  readonly insertSpaces: boolean;
  readonly tabSize: number;
}

/** A line ending like this expects a block (or a literal's items) to follow. */
const opensBlock = /(?:[{([:]|=>|\b(?:then|do|else))\s*$/;

export function cursorContext(input: CompletionInput, lookahead = 16): CursorContext {
  const linePrefix = input.prefix.slice(input.prefix.lastIndexOf("\n") + 1);
  const nl = input.suffix.indexOf("\n");
  const lineSuffix = nl === -1 ? input.suffix : input.suffix.slice(0, nl);
  const nextLines: string[] = [];
  if (nl !== -1) {
    for (const line of input.suffix.slice(nl + 1, nl + 1 + 4000).split("\n")) {
      if (line.trim() !== "") nextLines.push(line.trimEnd());
      if (nextLines.length === lookahead) break;
    }
  }
  const { tabSize, insertSpaces } = input.indent;
  const atLineEnd = lineSuffix.trim() === "";
  // `{|}`: the editor closed the block the user just opened.
  const beforeAutoClosed = /^\}[)\]}]*[;,]?\s*$/.test(lineSuffix) && /\{\s*$/.test(linePrefix);
  const opens = (atLineEnd || beforeAutoClosed) && opensBlock.test(linePrefix);
  const syntax = syntaxFor(input.languageId);
  const brackets = stateAtEnd(input.prefix, syntax, input.prefixOffset === 0);
  const closed = closedAfter(brackets, input.suffix, syntax);
  // A cut suffix may close the rest further on: assume it does, rather than suggest a duplicate.
  const cut = input.suffixCut ?? input.suffix.length >= maxSuffixChars;
  const inFile = cut ? brackets.frames.length : closed.inFile;
  return {
    linePrefix,
    lineSuffix,
    nextLines,
    multiline: opens || (atLineEnd && linePrefix.trim() === ""),
    lineIndent: indentWidth(linePrefix, tabSize),
    opensBlock: opens,
    syntax,
    brackets,
    closedOnLine: closed.onLine,
    closedInFile: inFile,
    atBoundary: !/[\p{L}\p{N}_$]$/u.test(linePrefix),
    insertSpaces,
    tabSize,
  };
}

/** Columns of leading whitespace (tabs count to the next tab stop). */
export function indentWidth(line: string, tabSize: number): number {
  let width = 0;
  for (const ch of line) {
    if (ch === " ") width++;
    else if (ch === "\t") width += tabSize - (width % tabSize);
    else break;
  }
  return width;
}

/** Leading whitespace rewritten in the document's style (spaces or tabs), same width. */
export function normalizeIndent(line: string, ctx: Pick<CursorContext, "insertSpaces" | "tabSize">): string {
  const lead = line.length - line.trimStart().length;
  if (lead === 0) return line;
  return indentString(indentWidth(line.slice(0, lead), ctx.tabSize), ctx.insertSpaces, ctx.tabSize) + line.slice(lead);
}

/** Whitespace `width` columns wide: spaces, or tabs then spaces for the rest (none for width <= 0). */
export function indentString(width: number, insertSpaces: boolean, tabSize: number): string {
  if (width <= 0) return "";
  return insertSpaces ? " ".repeat(width) : "\t".repeat(Math.floor(width / tabSize)) + " ".repeat(width % tabSize);
}

const closerLine = /^(?:[)\]}][)\]};,]*|end|fi|done|esac)$/;

/** A line that only closes brackets or blocks. */
export function isCloserLine(trimmed: string): boolean {
  return closerLine.test(trimmed);
}
