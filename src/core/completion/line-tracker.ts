import { scanBrackets, type BracketState, type Frame, type ScanResult } from "./brackets";
import { indentWidth, type CursorContext } from "./cursor-context";

/** One line of a multi-line suggestion, with what the line rules judge it by. */
export interface JudgedLine {
  /** The line as the model wrote it, without its newline. */
  readonly line: string;
  /** 0 for the line that continues the cursor line. */
  readonly index: number;
  /** The line as it stands in the file (the first one after the text before the cursor), trimmed. */
  readonly trimmed: string;
  /** Its indentation width in columns, as it stands in the file. */
  readonly indent: number;
  /** What is open before the line (from the file and the lines kept so far). */
  readonly before: BracketState;
  /** What the suggestion itself opened before the line and has not closed, innermost last. */
  readonly own: readonly Frame[];
  /** How many of the frames open at the cursor are still open before the line. */
  readonly outer: number;
  /** What is open after the line, and the fewest frames open along it. */
  readonly after: ScanResult;
}

/**
 * Follows the brackets through the lines of a suggestion, so that each rule sees a line with what
 * is open around it without keeping state of its own: `see` a line, `keep` it if it stays.
 */
export class LineTracker {
  private state: BracketState;
  /** How many of the frames open at the cursor are still open (the suggestion closes some). */
  private outer: number;

  constructor(private readonly ctx: CursorContext) {
    this.state = ctx.brackets;
    this.outer = ctx.brackets.frames.length;
  }

  see(line: string, index: number): JudgedLine {
    const full = index === 0 ? this.ctx.linePrefix + line : line;
    return {
      line,
      index,
      trimmed: full.trim(),
      indent: indentWidth(full, this.ctx.tabSize),
      before: this.state,
      own: this.own(),
      outer: this.outer,
      after: scanBrackets(`${line}\n`, this.ctx.syntax, this.state),
    };
  }

  /** The line stays in the suggestion: what it opens and closes counts for the lines after it. */
  keep(judged: JudgedLine): void {
    this.state = judged.after;
    this.outer = Math.min(this.outer, judged.after.low);
  }

  /** What the lines kept so far opened and did not close, innermost last. */
  own(): readonly Frame[] {
    return this.state.frames.slice(this.outer);
  }
}
