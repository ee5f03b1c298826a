/**
 * The playground's chat setup (as typed into its form) and conversation, turned into the exact
 * `/v1/chat/completions` body it sends and shows as code.
 */
import { readLines, readNumber, type FieldError } from "./form-values";

export type ResponseMode = "text" | "json_object" | "json_schema";

/** Parameter fields as typed; empty means "server default" and is left out of the request. */
export interface ChatParameterFields {
  temperature: string;
  top_p: string;
  top_k: string;
  max_tokens: string;
  /** One stop sequence per line; `\n` stands for a newline. */
  stop: string;
  presence_penalty: string;
  frequency_penalty: string;
  seed: string;
}

export interface ChatSetup {
  model: string;
  system: string;
  params: ChatParameterFields;
  responseMode: ResponseMode;
  /** The JSON schema (as JSON text) for responseMode "json_schema". */
  jsonSchema: string;
  stream: boolean;
}

export interface ChatTurn {
  role: "user" | "assistant";
  content: string;
}

export type ChatRequestResult = { ok: true; body: Record<string, unknown> } | { ok: false; errors: FieldError[] };

export const emptyChatParameters = (): ChatParameterFields => ({
  temperature: "",
  top_p: "",
  top_k: "",
  max_tokens: "",
  stop: "",
  presence_penalty: "",
  frequency_penalty: "",
  seed: "",
});

/** The server's limits (routes/schemas.ts), checked here so mistakes show at the field. */
const numberFields = [
  ["temperature", { min: 0, max: 2 }],
  ["top_p", { min: 0, max: 1 }],
  ["top_k", { min: -1, integer: true }],
  ["max_tokens", { min: 1, integer: true }],
  ["presence_penalty", { min: -2, max: 2 }],
  ["frequency_penalty", { min: -2, max: 2 }],
  ["seed", { integer: true }],
] as const;

const maxStops = 16;

export function buildChatRequest(setup: ChatSetup, turns: readonly ChatTurn[]): ChatRequestResult {
  const errors: FieldError[] = [];
  if (setup.model === "") errors.push({ field: "model", message: "choose a model" });
  const messages: { role: string; content: string }[] = [];
  if (setup.system.trim() !== "") messages.push({ role: "system", content: setup.system });
  for (const turn of turns) messages.push({ role: turn.role, content: turn.content });
  if (!turns.some((t) => t.role === "user")) errors.push({ field: "messages", message: "write a message" });

  const body: Record<string, unknown> = { model: setup.model, messages };
  for (const [field, rule] of numberFields) {
    const value = readNumber(field, setup.params[field], rule, errors);
    if (value !== undefined) body[field] = value;
  }
  const stops = readLines(setup.params.stop);
  if (stops.length > maxStops) errors.push({ field: "stop", message: `stop takes at most ${maxStops} sequences` });
  else if (stops.length > 0) body.stop = stops;

  if (setup.responseMode === "json_object") body.response_format = { type: "json_object" };
  if (setup.responseMode === "json_schema") {
    const schema = parseSchema(setup.jsonSchema);
    if (typeof schema === "string") errors.push({ field: "json_schema", message: schema });
    else body.response_format = { type: "json_schema", json_schema: { name: "response", schema } };
  }
  if (setup.stream) {
    body.stream = true;
    body.stream_options = { include_usage: true };
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, body };
}

/** The schema object, or a message saying what is wrong with the text. */
function parseSchema(text: string): Record<string, unknown> | string {
  if (text.trim() === "") return "paste a JSON schema";
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `the JSON schema is not valid JSON: ${(error as Error).message}`;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "the JSON schema must be a JSON object";
  return value as Record<string, unknown>;
}
