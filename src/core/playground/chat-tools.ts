/**
 * The playground's tool: one function (name, description, JSON schema of its arguments) offered
 * to the model, the calls the model makes (whole or streamed in pieces), and the tool results
 * typed back in answer.
 */
import type { FieldError } from "./form-values";

export type ToolChoiceField = "auto" | "required" | "named" | "none";

/** The tool as typed; an empty name means no tool. */
export interface ToolFields {
  name: string;
  description: string;
  /** JSON schema of the arguments, as JSON text. */
  parameters: string;
  choice: ToolChoiceField;
}

export interface ToolCall {
  readonly id: string;
  readonly name: string;
  /** JSON text. */
  readonly arguments: string;
}

export const emptyTool = (): ToolFields => ({ name: "", description: "", parameters: "", choice: "auto" });

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

/** The schema object, or a message saying what is wrong with the text (`thing` names it). */
export function parseSchemaText(text: string, thing: string): Record<string, unknown> | string {
  if (text.trim() === "") return `paste a ${thing}`;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `the ${thing} is not valid JSON: ${(error as Error).message}`;
  }
  if (!isRecord(value) || Array.isArray(value)) return `the ${thing} must be a JSON object`;
  return value;
}

/** `tools` and `tool_choice` for the request body, or nothing when no tool is named. */
export function toolFields(fields: ToolFields | undefined, errors: FieldError[]): Record<string, unknown> {
  const name = fields?.name.trim() ?? "";
  if (!fields || name === "") return {};
  if (!/^[a-zA-Z0-9_-]{1,64}$/.test(name)) errors.push({ field: "tool_name", message: "the tool name may have letters, digits, _ and - (at most 64)" });
  const schema = parseSchemaText(fields.parameters, "JSON schema of the tool's arguments");
  if (typeof schema === "string") errors.push({ field: "tool_parameters", message: schema });
  const fn: Record<string, unknown> = { name };
  if (fields.description.trim() !== "") fn.description = fields.description.trim();
  if (typeof schema !== "string") fn.parameters = schema;
  const body: Record<string, unknown> = { tools: [{ type: "function", function: fn }] };
  if (fields.choice === "named") body.tool_choice = { type: "function", function: { name } };
  else if (fields.choice !== "auto") body.tool_choice = fields.choice;
  return body;
}

/** The calls of a whole answer's message. */
export function toolCallsOf(message: Record<string, unknown>): ToolCall[] {
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
  return calls.filter(isRecord).map((c) => {
    const fn = isRecord(c.function) ? c.function : {};
    return { id: String(c.id ?? ""), name: String(fn.name ?? ""), arguments: String(fn.arguments ?? "") };
  });
}

/** Adds a stream chunk's `delta.tool_calls`: a call starts with its id and name, its arguments follow in pieces. */
export function addToolCallDeltas(calls: readonly ToolCall[], deltas: unknown): ToolCall[] {
  if (!Array.isArray(deltas)) return [...calls];
  const next = [...calls];
  for (const delta of deltas.filter(isRecord)) {
    const index = typeof delta.index === "number" ? delta.index : next.length;
    const fn = isRecord(delta.function) ? delta.function : {};
    const known = next[index] ?? { id: "", name: "", arguments: "" };
    next[index] = {
      id: typeof delta.id === "string" ? delta.id : known.id,
      name: typeof fn.name === "string" ? known.name + fn.name : known.name,
      arguments: known.arguments + (typeof fn.arguments === "string" ? fn.arguments : ""),
    };
  }
  return next;
}

/** A call as one line: `name({"city": "Paris"})`. */
export const describeCall = (call: ToolCall) => `${call.name}(${call.arguments})`;

/** The first call of the conversation that no tool result answers yet. */
export function unansweredCall(turns: readonly { toolCalls?: readonly ToolCall[]; toolCallId?: string }[]): ToolCall | undefined {
  const answered = new Set(turns.map((t) => t.toolCallId).filter((id) => id !== undefined));
  return turns.flatMap((t) => t.toolCalls ?? []).find((c) => !answered.has(c.id));
}
