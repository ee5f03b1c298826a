/**
 * The playground's chat setup (as typed into its form) and conversation, turned into the exact
 * `/v1/chat/completions` body it sends and shows as code.
 */
import { parseSchemaText, toolFields, type ToolCall, type ToolFields } from "./chat-tools";
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
  /** A function the model may call. */
  tool?: ToolFields;
}

export interface ChatTurn {
  role: "user" | "assistant" | "tool";
  content: string;
  /** The calls an assistant turn made. */
  toolCalls?: readonly ToolCall[];
  /** The call a tool turn answers. */
  toolCallId?: string;
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
  const messages: Record<string, unknown>[] = [];
  if (setup.system.trim() !== "") messages.push({ role: "system", content: setup.system });
  for (const turn of turns) messages.push(message(turn));
  if (!turns.some((t) => t.role === "user")) errors.push({ field: "messages", message: "write a message" });

  const body: Record<string, unknown> = { model: setup.model, messages };
  for (const [field, rule] of numberFields) {
    const value = readNumber(field, setup.params[field], rule, errors);
    if (value !== undefined) body[field] = value;
  }
  Object.assign(body, toolFields(setup.tool, errors));
  const stops = readLines(setup.params.stop);
  if (stops.length > maxStops) errors.push({ field: "stop", message: `stop takes at most ${maxStops} sequences` });
  else if (stops.length > 0) body.stop = stops;

  if (setup.responseMode === "json_object") body.response_format = { type: "json_object" };
  if (setup.responseMode === "json_schema") {
    const schema = parseSchemaText(setup.jsonSchema, "JSON schema");
    if (typeof schema === "string") errors.push({ field: "json_schema", message: schema });
    else body.response_format = { type: "json_schema", json_schema: { name: "response", schema } };
  }
  if (setup.stream) {
    body.stream = true;
    body.stream_options = { include_usage: true };
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, body };
}

/** A turn as an API message: calls as `tool_calls`, results with the id of the call they answer. */
function message(turn: ChatTurn): Record<string, unknown> {
  if (turn.role === "tool") return { role: "tool", tool_call_id: turn.toolCallId ?? "", content: turn.content };
  if (!turn.toolCalls?.length) return { role: turn.role, content: turn.content };
  const calls = turn.toolCalls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } }));
  return { role: "assistant", content: turn.content === "" ? null : turn.content, tool_calls: calls };
}
