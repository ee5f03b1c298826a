import { leadingClosers } from "./brackets";
import type { ContextChunk } from "./context-ring";
import { lineCommentFor } from "./line-comments";
import { safeEnd, safeStart } from "../base/surrogates";
import { fillTemplate, type FimTemplate } from "./templates";
import type { CompletionInput } from "./types";

export interface ContextBudget {
  readonly prefixChars: number;
  readonly suffixChars: number;
  readonly extraChars: number;
  /**
   * The prefix window's start moves in steps of this many characters (then to a line start), so
   * that consecutive requests share their whole prompt up to the previous cursor.
   */
  readonly prefixStep: number;
  /**
   * Leave out the closers that follow the cursor: those on its line (`scale(|)`, auto-inserted:
   * the suggestion replaces them) and, after them, lines holding only closers (the `}` that Enter
   * between braces puts on a line of its own). The editor inserts and moves these as the user
   * types; without them the suffix stays the same, which keeps a suffix-first prompt reusable.
   * Where the suggestion ends still follows the whole text after the cursor.
   */
  readonly dropLeadingClosers: boolean;
}

// Where a prompt's suffix follows the prefix (prefix-suffix-middle from a client's own template, or
// after each new line on the local server), it is evaluated again per request: it is kept short.
export const defaultBudget: ContextBudget = { prefixChars: 6000, suffixChars: 800, extraChars: 2000, prefixStep: 1024, dropLeadingClosers: true };

export interface Prompt {
  readonly prompt: string;
  /** Set only when the server applies the FIM format. */
  readonly suffix?: string;
  readonly stop: readonly string[];
}

/**
 * The part of `prefix` the model sees. Its start is quantized on document offsets, which typing at
 * the cursor does not change, so it stays put for `prefixStep` characters of typing.
 */
export function prefixWindow(prefix: string, prefixOffset: number, budget: ContextBudget): string {
  const end = prefixOffset + prefix.length;
  if (end <= budget.prefixChars) return prefix.slice(safeStart(prefix, Math.max(0, -prefixOffset)));
  const quantized = Math.ceil((end - budget.prefixChars) / budget.prefixStep) * budget.prefixStep;
  let start = Math.max(0, quantized - prefixOffset);
  if (start > 0 && prefix[start - 1] !== "\n") {
    const nextLine = prefix.indexOf("\n", start);
    if (nextLine !== -1) start = nextLine + 1;
  }
  return prefix.slice(safeStart(prefix, start));
}

/** The first whole lines of `suffix` that fit the budget (a single long line is cut). */
export function suffixWindow(suffix: string, budget: ContextBudget): string {
  if (budget.dropLeadingClosers) suffix = withoutLeadingClosers(suffix);
  if (suffix.length <= budget.suffixChars) return suffix;
  const cut = suffix.lastIndexOf("\n", budget.suffixChars);
  return suffix.slice(0, cut > 0 ? cut : safeEnd(suffix, budget.suffixChars));
}

const closerOnlyLine = /^[ \t]*[)\]}]+[;,]?[ \t]*(?:\n|$)/;

/** `suffix` without its line's leading closers and, when nothing else is left on that line, the closer-only lines after it. */
function withoutLeadingClosers(suffix: string): string {
  const rest = suffix.slice(leadingClosers(suffix).length);
  const nl = rest.indexOf("\n");
  if (nl === -1 || rest.slice(0, nl).trim() !== "") return rest;
  let after = rest.slice(nl + 1);
  for (let line = closerOnlyLine.exec(after); line; line = closerOnlyLine.exec(after)) after = after.slice(line[0].length);
  return `${rest.slice(0, nl)}\n${after}`;
}

/** Extra chunks laid out as the template allows: file separators, or line comments. */
export function renderExtras(template: FimTemplate, input: CompletionInput, chunks: readonly ContextChunk[]): string {
  if (chunks.length === 0) return "";
  if (template.extraChunk) {
    const header = fillTemplate(template.extraHeader ?? "", { repo: input.workspace ?? "workspace" });
    const body = chunks.map((c) => fillTemplate(template.extraChunk as string, { path: c.path, text: c.text })).join("");
    return header + body + fillTemplate(template.extraFooter ?? "", { path: input.path });
  }
  const marker = lineCommentFor(input.languageId);
  if (!marker) return "";
  const comment = (text: string) => text.split("\n").map((l) => `${marker} ${l}`.trimEnd()).join("\n") + "\n";
  return chunks.map((c) => comment(`Path: ${c.path}\n${c.text}`)).join("") + comment(`Path: ${input.path}`);
}

export function buildPrompt(
  template: FimTemplate,
  input: CompletionInput,
  chunks: readonly ContextChunk[],
  budget: ContextBudget,
): Prompt {
  const prefix = prefixWindow(input.prefix, input.prefixOffset, budget);
  const suffix = suffixWindow(input.suffix, budget);
  const extras = renderExtras(template, input, chunks);
  if (template.sendsSuffix) {
    return { prompt: fillTemplate(template.prompt, { extras, prefix }), suffix, stop: template.stop };
  }
  return { prompt: fillTemplate(template.prompt, { extras, prefix, suffix }), stop: template.stop };
}
