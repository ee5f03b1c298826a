import { scanBrackets, syntaxFor } from "../../src/core/completion/brackets";

const pairs: Readonly<Record<string, string>> = { "(": ")", "[": "]", "{": "}", '"': '"', "'": "'", "`": "`" };
/** VS Code's `autoCloseBefore` for the JavaScript family: auto-close only before these (or the line end). */
const autoCloseBefore = ";:.,=}])>` \n\t";
const isQuote = (ch: string) => ch === '"' || ch === "'" || ch === "`";

/**
 * A text buffer that types the way VS Code does with its default settings, for tests and replays
 * that must see the text the editor really has: brackets and quotes are auto-closed (quotes not
 * after a word character nor inside a string), a closer it auto-inserted is typed over, Enter
 * between `{` and an auto-inserted `}` puts the `}` on a line of its own, and Backspace in an
 * empty auto-closed pair deletes both.
 */
export class AutoClosingEditor {
  /** Offsets of closers the editor inserted and the user has not typed over. */
  private auto: number[] = [];

  constructor(
    public text: string,
    public cursor: number,
    private readonly languageId = "typescript",
  ) {}

  get prefix(): string {
    return this.text.slice(0, this.cursor);
  }

  get suffix(): string {
    return this.text.slice(this.cursor);
  }

  /** One typed character. */
  type(ch: string): void {
    if (ch === "\n") return this.enter("\n" + this.indentOfLine());
    const next = this.text[this.cursor] ?? "";
    if (next === ch && this.auto.includes(this.cursor)) {
      this.auto = this.auto.filter((at) => at !== this.cursor);
      this.cursor++;
      return;
    }
    const closer = pairs[ch];
    if (closer !== undefined && this.autoCloses(ch, next)) {
      this.insert(ch + closer);
      this.cursor--;
      this.auto.push(this.cursor);
      return;
    }
    this.insert(ch);
  }

  /** Enter, with the indentation the editor gives the new line (e.g. "\n    "). */
  enter(newLine: string): void {
    const before = this.text[this.cursor - 1];
    const next = this.text[this.cursor];
    if (before === "{" && next === "}" && this.auto.includes(this.cursor)) {
      this.auto = this.auto.filter((at) => at !== this.cursor);
      this.insert(newLine);
      const at = this.cursor;
      this.insert("\n" + this.indentOf(this.text.lastIndexOf("\n", at - newLine.length - 1) + 1));
      this.cursor = at;
      return;
    }
    this.insert(newLine);
  }

  backspace(): void {
    if (this.cursor === 0) return;
    const pair = pairs[this.text[this.cursor - 1] as string];
    const both = pair !== undefined && this.text[this.cursor] === pair && this.auto.includes(this.cursor);
    if (both) this.auto = this.auto.filter((at) => at !== this.cursor);
    this.delete(this.cursor - 1, both ? 2 : 1);
  }

  /** Text put in as is (a paste, an accepted suggestion). */
  insert(text: string): void {
    this.text = this.text.slice(0, this.cursor) + text + this.text.slice(this.cursor);
    this.auto = this.auto.map((at) => (at >= this.cursor ? at + text.length : at));
    this.cursor += text.length;
  }

  /** Accepts a suggestion that replaces `replace` characters after the cursor. */
  accept(text: string, replace: number): void {
    this.delete(this.cursor, replace);
    this.insert(text);
  }

  private delete(from: number, count: number): void {
    this.text = this.text.slice(0, from) + this.text.slice(from + count);
    this.auto = this.auto.filter((at) => at < from || at >= from + count).map((at) => (at >= from + count ? at - count : at));
    if (this.cursor > from) this.cursor = Math.max(from, this.cursor - count);
  }

  private autoCloses(ch: string, next: string): boolean {
    if (next !== "" && !autoCloseBefore.includes(next)) return false;
    if (!isQuote(ch)) return true;
    const before = this.text[this.cursor - 1] ?? "";
    if (/[\p{L}\p{N}_]/u.test(before)) return false;
    const lineStart = this.text.lastIndexOf("\n", this.cursor - 1) + 1;
    const state = scanBrackets(this.text.slice(lineStart, this.cursor), syntaxFor(this.languageId));
    const top = state.frames[state.frames.length - 1];
    return !(top !== undefined && isQuote(top[0] as string)); // not inside a string
  }

  private indentOfLine(): string {
    return this.indentOf(this.text.lastIndexOf("\n", this.cursor - 1) + 1);
  }

  private indentOf(lineStart: number): string {
    return /^[ \t]*/.exec(this.text.slice(lineStart))?.[0] ?? "";
  }
}
