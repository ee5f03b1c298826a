/**
 * A review's findings as the model reports them: the JSON schema asked for (through
 * `response_format` where the server takes one, else as a tool's parameters), and the reading of
 * the answer, which keeps what fits the schema and counts the rest.
 */
import type { ChatTool } from "../api/chat";
import { answerText, splitThinking } from "../chat/thinking";
import { cutAt } from "../base/surrogates";

export type Severity = "error" | "warning" | "info";
export const severities: readonly Severity[] = ["error", "warning", "info"];

export interface Finding {
  /** The file as the review named it (repository- or workspace-relative). */
  readonly file: string;
  /** 1-based, inclusive. */
  readonly line: number;
  readonly endLine: number;
  readonly severity: Severity;
  /** What is wrong and why, in markdown. */
  readonly comment: string;
  /** Replacement text for lines line..endLine; undefined when the model proposes none. */
  readonly fix?: string;
}

/**
 * Every property required and nothing else allowed: strict servers (OpenAI's structured outputs)
 * ask for that, and grammar-based ones (llama.cpp) produce every property anyway. No fix is "".
 */
export const findingsSchema = {
  type: "object",
  properties: {
    findings: {
      type: "array",
      items: {
        type: "object",
        properties: {
          file: { type: "string", description: "The file's path exactly as the review names it." },
          line: { type: "integer", description: "First line of the problem (1-based, as numbered in the review)." },
          end_line: { type: "integer", description: "Last line of the problem (the same as line for one line)." },
          severity: { type: "string", enum: [...severities] },
          comment: { type: "string", description: "What is wrong and why, in one or two sentences." },
          fix: { type: "string", description: "The replacement text for lines line..end_line (whole lines, indented as in the file), or \"\" when there is no simple fix." },
        },
        required: ["file", "line", "end_line", "severity", "comment", "fix"],
        additionalProperties: false,
      },
    },
  },
  required: ["findings"],
  additionalProperties: false,
} as const;

export const findingsToolName = "report_findings";

/** The same schema as a tool the model must call, for servers that take no `response_format` schema. */
export const findingsTool: ChatTool = {
  type: "function",
  function: { name: findingsToolName, description: "Report the review's findings (an empty list when there are none).", parameters: findingsSchema as unknown as Record<string, unknown> },
};

export const responseFormat = { type: "json_schema", json_schema: { name: "review_findings", strict: true, schema: findingsSchema } } as const;

/** The answer was not JSON, or not an object with a `findings` list: nothing can be shown. */
export class ReviewOutputError extends Error {
  readonly kind = "malformed";
}

export interface ParsedFindings {
  readonly findings: readonly Finding[];
  /** Items of the list that do not fit the schema. */
  readonly malformed: number;
}

/**
 * The JSON of an answer: a server that does not apply response_format lets the model write its
 * thinking first (a leading think block), a sentence before it ("Here are the findings:") or a fence.
 */
function jsonOf(answer: string): string {
  const text = answerText(answer).trim();
  const fenced = /^```(?:json)?[ \t]*\n([\s\S]*?)\n?```/m.exec(text);
  if (fenced) return fenced[1]!.trim();
  const start = text.search(/^\{/m);
  return start > 0 ? text.slice(start) : text;
}

/** The findings of the model's answer (a JSON text, maybe in a code fence); throws ReviewOutputError. */
export function parseFindings(answer: string): ParsedFindings {
  if (splitThinking(answer).thinkingOpen) throw new ReviewOutputError("The model's answer ended while it was still thinking (its max tokens spent), so no finding is shown. Raise wisp.chat.maxTokens, or review fewer changes at once.");
  const text = jsonOf(answer);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const shown = text.length > 80 ? `${cutAt(text, 80)}…` : text;
    throw new ReviewOutputError(`The model's review is not JSON, so no finding is shown (it began: ${JSON.stringify(shown)}). Try again, or a model that supports structured output.`);
  }
  const list = (value as { findings?: unknown } | null)?.findings;
  if (!Array.isArray(list)) throw new ReviewOutputError("The model's review has no list of findings, so no finding is shown. Try again, or a model that supports structured output.");
  const findings = list.map(toFinding).filter((f): f is Finding => f !== undefined);
  return { findings, malformed: list.length - findings.length };
}

function toFinding(item: unknown): Finding | undefined {
  if (typeof item !== "object" || item === null) return undefined;
  const r = item as Record<string, unknown>;
  const line = r.line;
  const endLine = r.end_line ?? line;
  if (typeof r.file !== "string" || r.file.trim() === "") return undefined;
  if (!Number.isInteger(line) || !Number.isInteger(endLine) || (line as number) < 1 || (endLine as number) < (line as number)) return undefined;
  if (!severities.includes(r.severity as Severity)) return undefined;
  if (typeof r.comment !== "string" || r.comment.trim() === "") return undefined;
  if (r.fix !== undefined && r.fix !== null && typeof r.fix !== "string") return undefined;
  const fix = typeof r.fix === "string" && r.fix.trim() !== "" ? r.fix : undefined;
  return { file: r.file.trim(), line: line as number, endLine: endLine as number, severity: r.severity as Severity, comment: r.comment.trim(), ...(fix === undefined ? {} : { fix }) };
}
