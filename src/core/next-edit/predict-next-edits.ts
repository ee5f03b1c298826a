import { CodeRegions, type Span } from "./code-regions";
import type { Hunk } from "./edit-history";
import { isMemberName, renameAt } from "./rename-at";

/** A proposed edit of the current text: `oldText` at `offset` becomes `newText`. */
export interface NextEdit {
  readonly offset: number;
  readonly oldText: string;
  readonly newText: string;
}

const wordChar = /[\w$]/;
const identifier = /^[A-Za-z_$][\w$]*$/;
const declarationBefore = /\b(?:let|const|var|function|class|interface|type|enum)\s+$/;

/**
 * Where the user's last edit (`hunk`, already in `text`) applies elsewhere in the same file, in
 * document order: a renamed identifier's other uses in its scope, or else the other occurrences of
 * the text it changed; code changes code, strings and comments change strings and comments.
 * Never touches the hunk itself, so it cannot undo what the user typed, and returns nothing once
 * every place is changed.
 */
export function predictNextEdits(text: string, hunk: Hunk): NextEdit[] {
  const regions = new CodeRegions(text);
  const site: Span = { start: hunk.offset, end: hunk.offset + hunk.newText.length };
  return renameEdits(text, hunk, site, regions) ?? repeatedEdits(text, hunk, site, regions);
}

/** The first edit at or after `offset`, else the first of all (the search wraps like find). */
export function nextEditFrom(edits: readonly NextEdit[], offset: number): NextEdit | undefined {
  return edits.find((e) => e.offset >= offset) ?? edits[0];
}

/** Other uses of an identifier the hunk renamed; undefined when the hunk is no rename. */
function renameEdits(text: string, hunk: Hunk, site: Span, regions: CodeRegions): NextEdit[] | undefined {
  if (![hunk.oldText, hunk.newText].every((part) => /^[\w$]*$/.test(part))) return undefined;
  const word = widenToWord(text, site);
  const newWord = text.slice(word.start, word.end);
  const oldWord = text.slice(word.start, site.start) + hunk.oldText + text.slice(site.end, word.end);
  if (!identifier.test(newWord) || !identifier.test(oldWord) || newWord === oldWord) return undefined;
  const member = text[word.start - 1] === "." || (regions.isClassBody(regions.blocksAround(word.start)[0]) && isMemberName(text, word.start, regions));
  const scope = renameScope(text, word.start, [oldWord, newWord], regions);
  const inProse = regions.inProse(word.start);
  const edits: NextEdit[] = [];
  for (const at of wholeWords(text, oldWord, scope)) {
    if (!member && text[at - 1] === ".") continue;
    if (regions.inProse(at) !== inProse) continue;
    const edit = member || inProse ? { offset: at, oldText: oldWord, newText: newWord } : renameAt(text, at, oldWord, newWord, regions);
    if (edit) edits.push(edit);
  }
  return edits;
}

/**
 * Where a renamed name lives: after a declaring keyword, the block holding it; in a parameter
 * list, that function; at a use, the innermost block around it that declares the name (old, or new
 * once that declaration was renamed too); else the whole file.
 */
function renameScope(text: string, at: number, names: readonly string[], regions: CodeRegions): Span {
  const around = regions.blocksAround(at);
  const whole = { start: 0, end: text.length };
  if (declarationBefore.test(text.slice(Math.max(0, at - 40), at))) return around[0] ?? whole;
  const body = regions.blocks.find((b) => b.start > at);
  const list = body && regions.paramsBefore(body.start);
  if (body && list && list.start < at && at < list.end) return { start: list.start, end: body.end };
  const declares = new RegExp(`\\b(?:let|const|var|function|class)\\s+(?:${names.map(escape).join("|")})\\b`, "g");
  for (const block of around) {
    const params = regions.paramsBefore(block.start);
    if (params && names.some((name) => wholeWords(text, name, params).length > 0)) return { start: params.start, end: block.end };
    for (const m of text.slice(block.start, block.end).matchAll(declares)) {
      if (regions.blocksAround(block.start + m.index + 1)[0] === block) return block;
    }
    if (regions.isClassBody(block)) return block;
  }
  return whole;
}

/** Other occurrences of the text the hunk changed, widened to a call or bracket group on its line, or to whole words. */
function repeatedEdits(text: string, hunk: Hunk, site: Span, regions: CodeRegions): NextEdit[] {
  const wide = widenToGroup(text, site, regions) ?? widenToWord(text, site);
  const oldText = text.slice(wide.start, site.start) + hunk.oldText + text.slice(site.end, wide.end);
  const newText = text.slice(wide.start, wide.end);
  // A deletion is not repeated: erasing the same word elsewhere is rarely what comes next.
  if (!/[\w$]/.test(oldText) || oldText.trim().length < 2 || newText.trim() === "" || oldText === newText || oldText.includes("\n")) return [];
  const inProse = regions.inProse(wide.start);
  // Where the new text stands (the user's hunk, the places already changed), the old text it may hold is done.
  const done = occurrences(text, newText).map((at) => ({ start: at, end: at + newText.length }));
  const edits: NextEdit[] = [];
  for (const at of occurrences(text, oldText)) {
    if (!isWhole(text, at, oldText.length) || regions.inProse(at) !== inProse) continue;
    if (done.some((span) => span.start <= at && at + oldText.length <= span.end)) continue;
    edits.push({ offset: at, oldText, newText });
  }
  return edits;
}

function widenToWord(text: string, span: Span): Span {
  let start = span.start;
  let end = span.end;
  while (start > 0 && wordChar.test(text[start - 1]!)) start--;
  while (end < text.length && wordChar.test(text[end]!)) end++;
  return { start, end };
}

/** The innermost bracket group on the span's line that holds it, with the name called before it. */
function widenToGroup(text: string, span: Span, regions: CodeRegions): Span | undefined {
  const pairs: Record<string, string> = { "(": ")", "[": "]" };
  let depth = 0;
  for (let i = span.start - 1; i >= 0 && text[i] !== "\n"; i--) {
    const c = text[i]!;
    if (regions.inProse(i)) continue;
    if (c === ")" || c === "]") depth++;
    else if (pairs[c] && depth-- === 0) {
      const close = closing(text, span.end, c, pairs[c]!, regions);
      return close === undefined ? undefined : { start: widenToWord(text, { start: i, end: i }).start, end: close + 1 };
    }
  }
  return undefined;
}

function closing(text: string, from: number, open: string, close: string, regions: CodeRegions): number | undefined {
  let depth = 0;
  for (let i = from; i < text.length && text[i] !== "\n"; i++) {
    if (regions.inProse(i)) continue;
    if (text[i] === open) depth++;
    else if (text[i] === close && depth-- === 0) return i;
  }
  return undefined;
}

function occurrences(text: string, part: string, within: Span = { start: 0, end: text.length }): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(part, within.start); at >= 0 && at + part.length <= within.end; at = text.indexOf(part, at + 1)) found.push(at);
  return found;
}

function wholeWords(text: string, word: string, within: Span): number[] {
  return occurrences(text, word, within).filter((at) => isWhole(text, at, word.length));
}

/** Whether `length` characters at `at` neither start nor end inside a longer word. */
function isWhole(text: string, at: number, length: number): boolean {
  const cut = (inner: string | undefined, outer: string | undefined) => inner !== undefined && outer !== undefined && wordChar.test(inner) && wordChar.test(outer);
  return !cut(text[at], text[at - 1]) && !cut(text[at + length - 1], text[at + length]);
}

function escape(word: string): string {
  return word.replace(/\$/g, "\\$");
}

/**
 * Whether the edit only inserts: its old text is what remains of the new one with some characters
 * left out. VS Code draws such a replacement as ghost text at its start; any other needs the diff look.
 */
export function onlyInserts(edit: NextEdit): boolean {
  let i = 0;
  for (const ch of edit.newText) if (ch === edit.oldText[i]) i++;
  return i === edit.oldText.length && edit.newText.length > edit.oldText.length;
}
