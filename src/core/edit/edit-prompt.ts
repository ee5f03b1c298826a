/**
 * The chat request of an edit: the block with its file name, language and line numbers, the lines
 * around it, the diagnostics on it, and the instruction; the model is asked for the replacement
 * code only.
 */
import type { ChatMessage } from "../api/chat";
import { fenceFor } from "../chat/prompt";

export interface EditDiagnostic {
  /** 0-based line in the document. */
  readonly line: number;
  readonly severity: "error" | "warning" | "info" | "hint";
  readonly message: string;
}

export interface EditRequestInput {
  readonly instruction: string;
  /** Path shown to the model (relative to the workspace when possible). */
  readonly path: string;
  readonly language: string;
  /** 0-based first line of the block. */
  readonly startLine: number;
  readonly lines: readonly string[];
  readonly before: readonly string[];
  readonly after: readonly string[];
  readonly diagnostics: readonly EditDiagnostic[];
}

/** Lines of context given on each side of the block. */
export const contextLines = 20;

export const editSystemPrompt = [
  "You edit code. You are given a block of a file and an instruction.",
  "Reply with the complete replacement for the block only: the code, in one fenced code block, with no explanation before or after it.",
  "Keep the block's indentation, keep lines the instruction does not touch exactly as they are, and do not repeat the lines around the block.",
].join(" ");

function fenced(lines: readonly string[], language: string): string {
  const text = lines.join("\n");
  const fence = fenceFor(text);
  return `${fence}${language}\n${text}\n${fence}`;
}

export function editMessages(input: EditRequestInput): ChatMessage[] {
  const first = input.startLine + 1;
  const last = input.startLine + input.lines.length;
  const parts = [`File: ${input.path} (${input.language})`];
  if (input.before.length > 0) parts.push(`Lines ${first - input.before.length}-${first - 1}, before the block (context, do not repeat):\n${fenced(input.before, input.language)}`);
  parts.push(`The block, lines ${first}-${last}:\n${fenced(input.lines, input.language)}`);
  if (input.after.length > 0) parts.push(`Lines ${last + 1}-${last + input.after.length}, after the block (context, do not repeat):\n${fenced(input.after, input.language)}`);
  if (input.diagnostics.length > 0) {
    parts.push(`Problems reported on the block:\n${input.diagnostics.map((d) => `- line ${d.line + 1} (${d.severity}): ${d.message}`).join("\n")}`);
  }
  parts.push(`Instruction: ${input.instruction.trim()}`);
  parts.push("Reply with the replacement code for the block only.");
  return [
    { role: "system", content: editSystemPrompt },
    { role: "user", content: parts.join("\n\n") },
  ];
}
