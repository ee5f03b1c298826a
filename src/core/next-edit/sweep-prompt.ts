import type { Hunk } from "./edit-history";
import { editsBetween } from "./window-edits";
import type { NextEdit } from "./predict-next-edits";

/**
 * The prompt of Sweep's open next-edit model (sweepai/sweep-next-edit), as Zed builds it for an
 * OpenAI-compatible server: github:zed-industries/zed, crates/edit_prediction/src/sweep_prompt.rs
 * at commit ab905301d4eaac433af2d6a951d41e9b59cae178 (`build_prompt`, `write_file_block`,
 * `limit_change_lines`, `clean_response_text`, the window constants). The same `<|file_sep|>`
 * original/current/updated layout is in github:sweepai/vscode-nes src/local/completions.ts at
 * 9bce2d776b4070ceff548e4b10b381f3cc701053. The model answers the updated window, ending at a
 * stop token.
 */

export const sweepStop = ["<|file_sep|>", "</s>"] as const;
/** Zed's WINDOW_LINES_ABOVE / WINDOW_LINES_BELOW. */
const windowLines = 10;
/** Zed's MAX_RECENT_CHANGE_BLOCKS and MAX_RECENT_CHANGE_LINES. */
const maxChangeBlocks = 3;
const maxChangeLines = 40;

/** A recent edit as the prompt shows it: the lines it touched, before and after. */
export interface SweepChange {
  readonly path: string;
  readonly original: string;
  readonly updated: string;
}

export interface SweepPromptInput {
  readonly path: string;
  /** The editable window as it was before the file's latest edit. */
  readonly originalWindow: string;
  readonly currentWindow: string;
  /** Oldest first. */
  readonly recentChanges: readonly SweepChange[];
}

/** A span of the document's text: `[start, end)`. */
export interface Window {
  readonly start: number;
  readonly end: number;
}

/** The prompt; undefined when a part holds one of the model's reserved tokens (Zed refuses those too). */
export function buildSweepPrompt(input: SweepPromptInput): string | undefined {
  const changes = input.recentChanges.slice(-maxChangeBlocks);
  const parts = [input.path, input.originalWindow, input.currentWindow, ...changes.flatMap((c) => [c.path, c.original, c.updated])];
  if (parts.some((part) => sweepStop.some((token) => part.includes(token)))) return undefined;
  let prompt = "";
  for (const change of changes) {
    prompt += fileBlock(`${change.path}.diff`, `original:\n${withNewline(change.original)}updated:\n${change.updated}`);
  }
  prompt += fileBlock(`original/${input.path}`, input.originalWindow);
  prompt += fileBlock(`current/${input.path}`, input.currentWindow);
  return `${prompt}<|file_sep|>updated/${input.path}\n`;
}

/** The lines from 10 above the cursor's to 10 below it, without the last line's line break. */
export function sweepWindow(text: string, cursor: number): Window {
  let start = lineStart(text, cursor);
  for (let i = 0; i < windowLines && start > 0; i++) start = lineStart(text, start - 1);
  let end = lineEnd(text, cursor);
  for (let i = 0; i < windowLines && end < text.length; i++) end = lineEnd(text, end + 1);
  // A CRLF break is left out whole: sweepAnswerEdits drops the answer's last break, `\r` and all,
  // so a `\r` left at the window's end would come back as an edit deleting it.
  return { start, end: text[end - 1] === "\r" && text[end] === "\n" ? end - 1 : end };
}

/** `window` of `text` as it was before `hunk` (the file's latest edit), mapped as Zed maps offsets into the old snapshot. */
export function originalWindow(text: string, hunk: Hunk, window: Window): string {
  const before = text.slice(0, hunk.offset) + hunk.oldText + text.slice(hunk.offset + hunk.newText.length);
  const toOld = (at: number): number => {
    if (at < hunk.offset) return at;
    if (at < hunk.offset + hunk.newText.length) return hunk.offset + Math.min(at - hunk.offset, hunk.oldText.length);
    return at + hunk.oldText.length - hunk.newText.length;
  };
  return before.slice(toOld(window.start), toOld(window.end));
}

/** A hunk of `text` (its document's current text) as a change block: the whole lines it touched. */
export function sweepChange(path: string, text: string, hunk: Hunk): SweepChange {
  const start = lineStart(text, hunk.offset);
  const end = lineEnd(text, hunk.offset + hunk.newText.length);
  const head = text.slice(start, hunk.offset);
  const tail = text.slice(hunk.offset + hunk.newText.length, end);
  return { path, original: limitLines(head + hunk.oldText + tail), updated: limitLines(text.slice(start, end)) };
}

/**
 * The model's answer (streamed text, cut at a stop token) as edits of `window` of `text`; none
 * when it changes nothing. The window ends without a line break while the answer's last line has
 * one before the stop token: that break is no edit.
 */
export function sweepAnswerEdits(text: string, window: Window, answer: string): NextEdit[] {
  let updated = answer;
  for (const token of sweepStop) {
    const at = updated.indexOf(token);
    if (at >= 0) updated = updated.slice(0, at);
  }
  const current = text.slice(window.start, window.end);
  // The model may answer a CRLF window in LF lines: those breaks are no edit of the file.
  if (current.includes("\r\n")) updated = updated.replace(/\r?\n/g, "\r\n");
  if (!current.endsWith("\n")) updated = updated.replace(/\r?\n$/, "");
  if (updated === "") return [];
  return editsBetween(current, updated).map((edit) => ({ ...edit, offset: edit.offset + window.start }));
}

function fileBlock(path: string, content: string): string {
  return `<|file_sep|>${path}\n${withNewline(content)}`;
}

function withNewline(content: string): string {
  return content.endsWith("\n") ? content : `${content}\n`;
}

/** Zed's `limit_change_lines`: the first half and the last lines, with `...` between. */
function limitLines(block: string): string {
  const lines = block.split("\n");
  if (lines.length <= maxChangeLines) return block;
  const head = maxChangeLines / 2;
  const tail = maxChangeLines - head - 1;
  return [...lines.slice(0, head), "...", ...lines.slice(-tail)].join("\n");
}

function lineStart(text: string, at: number): number {
  return at <= 0 ? 0 : text.lastIndexOf("\n", at - 1) + 1;
}

function lineEnd(text: string, at: number): number {
  const end = text.indexOf("\n", at);
  return end < 0 ? text.length : end;
}
