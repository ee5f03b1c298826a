/**
 * The code in a model's reply to an edit request. Models wrap it in a markdown fence, often with a
 * sentence before or after: the first fenced block is the code; without a fence, leading and
 * trailing prose lines are dropped. While the reply streams only complete lines count.
 */
import { answerText } from "../chat/thinking";

const fenceOpen = /^\s*(`{3,}|~{3,})/;
/** The lines models put around code: "Here is the updated function:", "This version ...". */
const proseLine = /^(sure|certainly|okay|ok|of course|here(?:'s| is| are)|below|the following|this (?:code|version|function|change|updated)|i(?:'ve| have| changed| updated| replaced| added| removed| made| cannot| can't)|note:|explanation:)\b/i;

/** A sentence rather than code: a known opening, or capitalised words ending in `:` or `.` with no code punctuation. */
function isProse(line: string): boolean {
  const text = line.trim();
  return proseLine.test(text) || (/^[A-Z][a-z']*(\s+\S+)+[:.]$/.test(text) && !/[;{}()=<>[\]]/.test(text));
}

/**
 * The code lines of `reply` so far. `final`: the reply ended, so its last line counts too. Before a
 * fence or code shows up (a reply opening with prose or thinking) the answer is no lines yet.
 */
export function codeOfReply(reply: string, final: boolean): string[] {
  return readReply(reply, final).code;
}

/**
 * Why a reply the server ended (`finishReason`) is no edit to propose, or undefined. Cut at
 * max_tokens or by a content filter before its code was whole, the block's remaining lines would
 * be proposed deleted; cut after the closing fence (in the explanation), the code is whole.
 */
export function cutReplyReason(reply: string, finishReason: string | undefined): string | undefined {
  if (finishReason !== "length" && finishReason !== "content_filter") return undefined;
  if (readReply(reply, true).closed) return undefined;
  const by = finishReason === "length" ? "at the max tokens limit (wisp.chat.maxTokens) or the model's context" : "by the server's content filter";
  return `the model's answer was cut off ${by} before its code was complete, so nothing is proposed (the block's remaining lines would have been deleted). Raise wisp.chat.maxTokens, or select fewer lines.`;
}

/** The reply's code lines, and whether they ended at a closing fence. */
function readReply(reply: string, final: boolean): { code: string[]; closed: boolean } {
  // A reasoning model's thinking (quoting the old code, drafting) is no part of the edit.
  const lines = answerText(reply).replace(/\r\n?/g, "\n").split("\n");
  if (!final) lines.pop();
  else if (lines.at(-1) === "") lines.pop();
  const fence = lines.findIndex((line) => fenceOpen.test(line));
  if (fence >= 0) {
    const marker = fenceOpen.exec(lines[fence]!)![1]!;
    const close = new RegExp(`^\\s*${marker[0] === "`" ? "`" : "~"}{${marker.length},}\\s*$`);
    const body = lines.slice(fence + 1);
    const end = body.findIndex((line) => close.test(line));
    return end >= 0 ? { code: body.slice(0, end), closed: true } : { code: body, closed: false };
  }
  return { code: unfencedCode(lines, final), closed: false };
}

function unfencedCode(lines: readonly string[], final: boolean): string[] {
  let start = 0;
  while (start < lines.length && (isProse(lines[start]!) || (start > 0 && lines[start]!.trim() === "" && isProse(lines[start - 1]!)))) start++;
  // A reply that so far is prose may still bring a fence: nothing yet.
  if (!final && start === lines.length) return [];
  let end = lines.length;
  if (final) while (end > start && (lines[end - 1]!.trim() === "" || isProse(lines[end - 1]!))) end--;
  return lines.slice(start, end);
}

/**
 * The lines of code that is already clean (a chat code block given to Apply), read like a reply:
 * while it streams only complete lines count, and the line break ending it starts no line.
 */
export function codeAsGiven(code: string, final: boolean): string[] {
  const lines = code.replace(/\r\n?/g, "\n").split("\n");
  if (!final || lines.at(-1) === "") lines.pop();
  return lines;
}

/** Reads the code out of the text an edit receives: `codeOfReply` for a model's reply, `codeAsGiven` for ready code. */
export type CodeReader = (text: string, final: boolean) => string[];

/** Whether a finished reply brought any code at all. */
export function hasCode(lines: readonly string[]): boolean {
  return lines.some((line) => line.trim() !== "");
}
