import { lineCommentFor } from "./line-comments";

/**
 * What is open at a point of the text: brackets, `${` of template strings, and strings. A
 * heuristic scanner (no parser): it knows strings, escapes and comments well enough to tell which
 * closers a suggestion needs and which the file already has.
 */
export type Frame = "(" | "[" | "{" | "${" | '"' | "'" | "`" | '"""' | "'''";

export interface BracketState {
  /** Innermost last. */
  readonly frames: readonly Frame[];
  readonly blockComment: boolean;
  /** The character before the scanned point ("" at the start), for the apostrophe rule. */
  readonly prev: string;
}

export interface Syntax {
  readonly lineComment?: string;
  readonly blockComment?: readonly [string, string];
  /** Python's """ and ''' strings, which span lines. */
  readonly tripleQuotes: boolean;
  /** Backtick strings span lines and take `${...}` (JavaScript family, Go's raw strings). */
  readonly multilineBackticks: boolean;
}

export const emptyState: BracketState = { frames: [], blockComment: false, prev: "" };

const cFamily = new Set(["c", "cpp", "csharp", "dart", "go", "groovy", "java", "javascript", "javascriptreact", "kotlin", "objectivec", "php", "rust", "scala", "swift", "typescript", "typescriptreact", "vue", "svelte", "css", "scss", "less", "zig"]);
const templateLanguages = new Set(["javascript", "javascriptreact", "typescript", "typescriptreact", "vue", "svelte", "go"]);

export function syntaxFor(languageId: string): Syntax {
  const lineComment = lineCommentFor(languageId);
  return {
    ...(lineComment ? { lineComment } : {}),
    ...(cFamily.has(languageId) ? { blockComment: ["/*", "*/"] as const } : {}),
    tripleQuotes: languageId === "python",
    multilineBackticks: templateLanguages.has(languageId),
  };
}

/** The closing text of a frame. */
export function closerOf(frame: Frame): string {
  switch (frame) {
    case "(":
      return ")";
    case "[":
      return "]";
    case "{":
    case "${":
      return "}";
    default:
      return frame;
  }
}

export interface ScanEvents {
  /** A frame open at the start was closed by the closer ending at `end` (exclusive). */
  readonly onCloseOuter?: (frame: Frame, end: number) => void;
  /**
   * A closer at `index` does not match the innermost bracket. Without this handler the scan
   * resynchronises instead (the text before it may have been scanned wrong).
   */
  readonly onMismatch?: (index: number) => void;
  /** A closer at `index` closes nothing open (after any resynchronising). */
  readonly onUnmatched?: (index: number) => void;
}

const openers: Readonly<Record<string, Frame>> = { "(": "(", "[": "[", "{": "{" };
const closers: Readonly<Record<string, Frame>> = { ")": "(", "]": "[", "}": "{" };
const isWord = (ch: string) => /[\p{L}\p{N}_$]/u.test(ch);
/** A string's frame (a quote), as opposed to a bracket's. */
export const isQuoteFrame = (frame: Frame | undefined): boolean => frame !== undefined && !(frame in openers) && frame !== "${";

export interface ScanResult extends BracketState {
  /** The fewest frames open at any point of the scan: frames[0..low) were open throughout. */
  readonly low: number;
}

/** Scans `text` from `state` and returns the state at its end, reporting closes of outer frames. */
export function scanBrackets(text: string, syntax: Syntax, state: BracketState = emptyState, events: ScanEvents = {}): ScanResult {
  const frames = [...state.frames];
  /** How many of the frames open at the start are still open. */
  let outer = frames.length;
  let blockComment = state.blockComment;
  let prev = state.prev;
  const pop = (end: number, reported: boolean) => {
    const frame = frames.pop() as Frame;
    if (frames.length < outer) {
      outer = frames.length;
      if (reported) events.onCloseOuter?.(frame, end);
    }
  };
  let i = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    const top = frames[frames.length - 1];
    if (blockComment) {
      const end = syntax.blockComment?.[1] ?? "";
      if (text.startsWith(end, i)) {
        blockComment = false;
        i += end.length;
      } else i++;
      prev = ch;
      continue;
    }
    if (isQuoteFrame(top)) {
      const quote = top as Frame;
      if (ch === "\\") {
        prev = text[i + 1] ?? "";
        i += 2;
        continue;
      }
      if (ch === "\n" && (quote === '"' || quote === "'" || (quote === "`" && !syntax.multilineBackticks))) {
        pop(i, false); // an unterminated one-line string ends with its line
      } else if (text.startsWith(quote, i)) {
        pop(i + quote.length, true);
        i += quote.length;
        prev = quote[quote.length - 1] as string;
        continue;
      } else if (quote === "`" && syntax.multilineBackticks && text.startsWith("${", i)) {
        frames.push("${");
        i += 2;
        prev = "{";
        continue;
      }
      prev = ch;
      i++;
      continue;
    }
    if (syntax.lineComment && text.startsWith(syntax.lineComment, i)) {
      const nl = text.indexOf("\n", i);
      i = nl === -1 ? text.length : nl;
      continue;
    }
    if (syntax.blockComment && text.startsWith(syntax.blockComment[0], i)) {
      blockComment = true;
      i += syntax.blockComment[0].length;
      continue;
    }
    if (ch in openers) {
      frames.push(openers[ch] as Frame);
    } else if (ch in closers) {
      const wanted = ch === "}" && top === "${" ? "${" : closers[ch];
      if (top === wanted) pop(i + 1, true);
      else if (events.onMismatch && top !== undefined) events.onMismatch(i);
      else {
        // Outer context the scan may have got wrong (it started mid-file): resynchronise on the
        // nearest matching frame, if any.
        const at = frames.lastIndexOf(closers[ch] as Frame);
        if (at !== -1) while (frames.length > at) pop(i + 1, frames.length === at + 1);
        else events.onUnmatched?.(i);
      }
    } else if (ch === '"' || ch === "'" || ch === "`") {
      const triple = syntax.tripleQuotes && ch !== "`" && text.startsWith(ch.repeat(3), i);
      if (triple) {
        frames.push(ch.repeat(3) as Frame);
        i += 3;
        prev = ch;
        continue;
      }
      if (ch !== "'" || !isWord(prev) || isStringPrefix(text, i, syntax)) frames.push(ch as Frame);
    }
    prev = ch;
    i++;
  }
  return { frames, blockComment, prev, low: outer };
}

/** Python's f'', r'', b'' (and their pairs): a quote after these letters still opens a string. */
function isStringPrefix(text: string, at: number, syntax: Syntax): boolean {
  if (!syntax.tripleQuotes) return false;
  const before = /[A-Za-z_]+$/.exec(text.slice(Math.max(0, at - 3), at))?.[0] ?? "";
  return /^(?:[rRuUfFbB]|[rR][bBfF]|[bBfF][rR])$/.test(before);
}

/** The state at the end of `prefix`, scanned from its first whole line (unless it starts the document). */
export function stateAtEnd(prefix: string, syntax: Syntax, startsDocument: boolean): BracketState {
  const start = startsDocument ? 0 : prefix.indexOf("\n") + 1;
  return scanBrackets(prefix.slice(start), syntax);
}

/** Characters the editor inserts after the cursor by auto-closing (and types over later). */
export const autoClosers = ")]}\"'`";

/** The run of auto-closable closers that starts `lineSuffix`. */
export function leadingClosers(lineSuffix: string): string {
  let n = 0;
  while (n < lineSuffix.length && autoClosers.includes(lineSuffix[n] as string)) n++;
  return lineSuffix.slice(0, n);
}

/**
 * How many of the frames open at the cursor (innermost first) the text after it closes: on the
 * cursor line's leading closers, and anywhere in `suffix`.
 */
export function closedAfter(state: BracketState, suffix: string, syntax: Syntax): { onLine: number; inFile: number } {
  const run = leadingClosers(suffix).length;
  let onLine = 0;
  let inFile = 0;
  scanBrackets(suffix, syntax, state, {
    onCloseOuter: (_frame, end) => {
      inFile++;
      if (end <= run && onLine === inFile - 1) onLine++;
    },
  });
  return { onLine, inFile };
}
