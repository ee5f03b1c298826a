import { applyChange, type TextChange } from "../base/text-change";

/**
 * The edits VS Code's save participants make on every save, auto-save after a delay included:
 * trimming trailing whitespace, inserting a final newline, trimming final newlines. A review copy
 * is saved like any editor, so these edits land in it; told apart from the user's typing, they
 * neither stop an edit nor reach the file (whose own save makes them there).
 */

/** Which of those save participants are on for a document (`files.*` settings of the same names). */
export interface SaveRules {
  readonly trimTrailingWhitespace: boolean;
  readonly insertFinalNewline: boolean;
  readonly trimFinalNewlines: boolean;
}


/** A place in a text by line and character, as vscode.Position has it. */
export interface LinePosition {
  readonly line: number;
  readonly character: number;
}

const isLineBreak = (char: string | undefined) => char === "\n" || char === "\r";

/** Whether `change` of `before` is an edit a save makes under `rules`, going by what it removes or adds and where. */
export function isSaveEdit(before: string, change: TextChange, rules: SaveRules): boolean {
  const { offset: start, length, text } = change;
  const end = start + length;
  if (text === "" && length > 0) {
    const removed = before.slice(start, end);
    const atLineEnd = end === before.length || isLineBreak(before[end]);
    if (rules.trimTrailingWhitespace && atLineEnd && /^[ \t]+$/.test(removed)) return true;
    // Only line breaks: the lines after the last one with text are empty ones.
    return rules.trimFinalNewlines && end === before.length && /^[\r\n]+$/.test(removed);
  }
  const finalLineHasText = before.length > 0 && !isLineBreak(before[before.length - 1]);
  return rules.insertFinalNewline && length === 0 && start === before.length && (text === "\n" || text === "\r\n") && finalLineHasText;
}

/** `text` with no space or tab at the end of a line, as trimTrailingWhitespace saves it. */
export function trimTrailingWhitespace(text: string): string {
  return text.replace(/[ \t]+(?=\r?\n|$)/g, "");
}

/** The offset of `position` in `text`, clamped to its line and to the text, as a document clamps it. */
export function offsetOf(text: string, position: LinePosition): number {
  let lineStart = 0;
  for (let line = 0; line < position.line; line++) {
    const next = text.indexOf("\n", lineStart);
    if (next < 0) return text.length;
    lineStart = next + 1;
  }
  const lineEnd = text.indexOf("\n", lineStart);
  const contentEnd = lineEnd < 0 ? text.length : lineEnd > lineStart && text[lineEnd - 1] === "\r" ? lineEnd - 1 : lineEnd;
  return Math.min(lineStart + position.character, contentEnd);
}

/** `text` with the lines and characters from `start` to `end` replaced by `insert`. */
export function replaceRange(text: string, range: { readonly start: LinePosition; readonly end: LinePosition }, insert: string): string {
  const start = offsetOf(text, range.start);
  return applyChange(text, { offset: start, length: Math.max(0, offsetOf(text, range.end) - start), text: insert });
}
