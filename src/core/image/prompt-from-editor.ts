import { lineCommentFor } from "../completion/line-comments";
import { cutAt } from "../base/surrogates";

/** What the editor shows around the cursor. */
export interface EditorText {
  /** The whole document (or a window of it around the cursor). */
  readonly text: string;
  /** The cursor's line, 0-based, in `text`. */
  readonly cursorLine: number;
  /** The selected text; empty when nothing is selected. */
  readonly selection: string;
  readonly languageId: string;
}

/** Longest prompt taken from the editor: a CLIP-style encoder reads about 75 tokens anyway. */
export const maxEditorPromptChars = 1000;

const cStyleBlock: readonly [string, string] = ["/*", "*/"];
const markupBlock: readonly [string, string] = ["<!--", "-->"];
const blockComments: Readonly<Record<string, readonly (readonly [string, string])[]>> = {
  ...Object.fromEntries(
    ["c", "cpp", "csharp", "dart", "go", "groovy", "java", "javascript", "javascriptreact", "kotlin", "objectivec", "php",
      "rust", "scala", "swift", "typescript", "typescriptreact", "zig", "css", "scss", "less", "sql", "jsonc"].map((id) => [id, [cStyleBlock]]),
  ),
  ...Object.fromEntries(["html", "xml", "markdown", "svg"].map((id) => [id, [markupBlock]])),
  vue: [cStyleBlock, markupBlock],
  svelte: [cStyleBlock, markupBlock],
  python: [['"""', '"""'], ["'''", "'''"]],
  lua: [["--[[", "]]"]],
  haskell: [["{-", "-}"]],
};

/**
 * The prompt the editor suggests: the selection when there is one, else the comment under the
 * cursor (a run of line comments, a block comment, or a comment at the end of a code line), with
 * the comment markers taken away and the lines joined. Undefined when neither gives any text.
 */
export function promptFromEditor(editor: EditorText): string | undefined {
  const lines = editor.selection.trim() !== "" ? uncommentSelection(editor) : commentAtCursor(editor);
  if (lines === undefined) return undefined;
  const prompt = lines.join(" ").replace(/\s+/g, " ").trim();
  if (prompt === "") return undefined;
  return prompt.length > maxEditorPromptChars ? cutAt(prompt, maxEditorPromptChars).trimEnd() : prompt;
}

/** A selected comment is used without its markers; selected text that is not a comment as it is. */
function uncommentSelection(editor: EditorText): string[] {
  const lines = editor.selection.split(/\r?\n/);
  const marker = lineCommentFor(editor.languageId);
  const nonBlank = lines.filter((line) => line.trim() !== "");
  if (marker !== undefined && nonBlank.every((line) => line.trimStart().startsWith(marker))) {
    return lines.map((line) => stripLineComment(line, marker));
  }
  for (const [open, close] of blockComments[editor.languageId] ?? []) {
    const trimmed = editor.selection.trim();
    if (trimmed.startsWith(open) && trimmed.endsWith(close) && trimmed.length >= open.length + close.length) {
      return blockBody(trimmed.slice(open.length, trimmed.length - close.length));
    }
  }
  return lines;
}

function commentAtCursor(editor: EditorText): string[] | undefined {
  const lines = editor.text.split(/\r?\n/);
  const line = lines[editor.cursorLine];
  if (line === undefined) return undefined;
  const marker = lineCommentFor(editor.languageId);
  if (marker !== undefined) {
    const run = lineCommentRun(lines, editor.cursorLine, marker);
    if (run !== undefined) return run;
  }
  const block = blockCommentAround(lines, editor.cursorLine, blockComments[editor.languageId] ?? []);
  if (block !== undefined) return block;
  if (marker !== undefined) return trailingComment(line, marker);
  return undefined;
}

/** The comment lines above and below the cursor's own comment line, up to the first other line. */
function lineCommentRun(lines: readonly string[], at: number, marker: string): string[] | undefined {
  const isComment = (index: number) => lines[index]?.trimStart().startsWith(marker) === true;
  if (!isComment(at)) return undefined;
  let first = at;
  let last = at;
  while (first > 0 && isComment(first - 1)) first--;
  while (last < lines.length - 1 && isComment(last + 1)) last++;
  return lines.slice(first, last + 1).map((line) => stripLineComment(line, marker));
}

/** `const sky = 1; // a red sky`: the comment after code, when the marker follows a space. */
function trailingComment(line: string, marker: string): string[] | undefined {
  const index = line.indexOf(` ${marker}`);
  if (index < 0) return undefined;
  return [stripLineComment(line.slice(index + 1), marker)];
}

function stripLineComment(line: string, marker: string): string {
  const trimmed = line.trimStart();
  if (!trimmed.startsWith(marker)) return trimmed;
  // `///` and `//!` doc comments, `##` headers: take the repeated marker characters away too.
  return trimmed.slice(marker.length).replace(new RegExp(`^[${escapeClass(marker)}!]*`), "").trim();
}

/** The body of the block comment that the cursor's line is part of, if any. */
function blockCommentAround(lines: readonly string[], at: number, pairs: readonly (readonly [string, string])[]): string[] | undefined {
  const text = lines.join("\n");
  const lineStart = lines.slice(0, at).reduce((sum, line) => sum + line.length + 1, 0);
  const lineEnd = lineStart + (lines[at]?.length ?? 0);
  for (const [open, close] of pairs) {
    if (lineEnd < open.length) continue;
    // The last opening that starts before the end of the cursor's line.
    let from = text.lastIndexOf(open, lineEnd - open.length);
    // With one marker for both ends (`"""`), an odd count of markers before it means it closes a block.
    if (from >= 0 && open === close && countBefore(text, open, from) % 2 === 1) from = from === 0 ? -1 : text.lastIndexOf(open, from - 1);
    if (from < 0) continue;
    const end = text.indexOf(close, from + open.length);
    if (end >= 0 && end + close.length <= lineStart) continue; // closed before the cursor's line
    return blockBody(text.slice(from + open.length, end < 0 ? undefined : end));
  }
  return undefined;
}

function countBefore(text: string, marker: string, before: number): number {
  let count = 0;
  for (let i = text.indexOf(marker); i >= 0 && i < before; i = text.indexOf(marker, i + marker.length)) count++;
  return count;
}

/** Lines of a block comment's body without the ` * ` that doc comments put in front of each. */
function blockBody(body: string): string[] {
  return body.split(/\r?\n/).map((line) => line.replace(/^\s*\*(?!\/)\s?/, "").trim());
}

function escapeClass(text: string): string {
  return text.replace(/[\\\]^-]/g, "\\$&");
}
