// The tool fields of a chat request (`tools`, `tool_choice`, `parallel_tool_calls`, the legacy
// `functions` / `function_call`) and the messages that carry calls and results, checked and
// turned into what the engine renders. Bad input is a 400 naming the field.
import type { ChatMessage, ChatTool, ToolCallMessage } from "../engines/text/chat-prompt";
import { ApiError } from "../errors";
import { schemaProblem } from "./json-schema-check";

const nullable = <const Schema extends object>(schema: Schema) => ({ anyOf: [schema, { type: "null" }] }) as const;
const functionName = { type: "string", pattern: "^[a-zA-Z0-9_-]{1,64}$" } as const;
const functionObject = {
  type: "object",
  required: ["name"],
  properties: { name: functionName, description: { type: "string" }, parameters: { type: "object" }, strict: nullable({ type: "boolean" }) },
} as const;
const namedFunction = { type: "object", required: ["name"], properties: { name: { type: "string" } } } as const;
const namedTool = { type: "object", required: ["type", "function"], properties: { type: { const: "function" }, function: namedFunction } } as const;

/** Body properties of /v1/chat/completions for tools. */
export const toolProperties = {
  tools: nullable({
    type: "array",
    maxItems: 128,
    items: { type: "object", required: ["type", "function"], properties: { type: { const: "function" }, function: functionObject } },
  }),
  tool_choice: nullable({
    anyOf: [
      { enum: ["none", "auto", "required"] },
      namedTool,
      // All tools stay in the prompt (as OpenAI keeps them, for its cache); calls are held to these.
      {
        type: "object",
        required: ["type", "allowed_tools"],
        properties: {
          type: { const: "allowed_tools" },
          allowed_tools: { type: "object", required: ["mode", "tools"], properties: { mode: { enum: ["auto", "required"] }, tools: { type: "array", minItems: 1, items: namedTool } } },
        },
      },
    ],
  }),
  // Accepted; an answer makes at most one call either way (see docs/server.md, Tool calling).
  parallel_tool_calls: nullable({ type: "boolean" }),
  functions: nullable({ type: "array", maxItems: 128, items: functionObject }),
  function_call: nullable({ anyOf: [{ enum: ["none", "auto"] }, namedFunction] }),
} as const;

/** Message properties for calls and results. */
export const toolMessageProperties = {
  tool_calls: nullable({
    type: "array",
    items: {
      type: "object",
      required: ["id", "function"],
      properties: { id: { type: "string" }, type: { const: "function" }, function: { type: "object", required: ["name", "arguments"], properties: { name: { type: "string" }, arguments: { type: "string" } } } },
    },
  }),
  tool_call_id: { type: "string" },
  function_call: nullable({ type: "object", required: ["name", "arguments"], properties: { name: { type: "string" }, arguments: { type: "string" } } }),
  name: { type: "string" },
} as const;

interface ToolBody {
  tools?: readonly { function: { name: string; description?: string; parameters?: object } }[] | null;
  tool_choice?:
    | "none"
    | "auto"
    | "required"
    | { type: "function"; function: { name: string } }
    | { type: "allowed_tools"; allowed_tools: { mode: "auto" | "required"; tools: readonly { function: { name: string } }[] } }
    | null;
  functions?: readonly { name: string; description?: string; parameters?: object }[] | null;
  function_call?: "none" | "auto" | { name: string } | null;
}

/** `allowed`: the only tools a call may name (tool_choice allowed_tools); all of them when absent. */
export type ToolChoice = { mode: "none" } | { mode: "auto" | "required"; allowed?: readonly string[] } | { mode: "named"; name: string };

export interface ToolRequest {
  tools: ChatTool[];
  choice: ToolChoice;
  /** Answer with `function_call` (the request used `functions`). */
  legacy: boolean;
}

// Like fastify's own validation errors, `param` names the top-level field; the message says where in it.
const invalid = (message: string, param: string) => new ApiError(400, message, "invalid_request_error", param, "invalid_value");

function checkSchemas(tools: readonly ChatTool[], param: string): void {
  tools.forEach((tool, i) => {
    const schema = tool.parameters;
    if (schema === undefined) return;
    const where = param === "tools" ? `tools[${i}].function.parameters` : `functions[${i}].parameters`;
    const problem = schemaProblem(schema);
    if (problem) throw invalid(`${where} is not a valid JSON schema: ${problem}`, param);
    if ((schema as { type?: unknown }).type !== "object") throw invalid(`${where} must be a JSON schema of type "object"`, param);
  });
  const names = tools.map((t) => t.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) throw invalid(`${param} names '${twice}' twice`, param);
}

function choiceOf(body: ToolBody, tools: readonly ChatTool[], legacy: boolean): ToolChoice {
  const param = legacy ? "function_call" : "tool_choice";
  const given = legacy ? body.function_call : body.tool_choice;
  if (given == null) return { mode: tools.length > 0 ? "auto" : "none" };
  if (tools.length === 0 && given !== "none") throw invalid(`${param} is only allowed when ${legacy ? "functions" : "tools"} are given`, param);
  if (typeof given === "string") return { mode: given };
  const known = (name: string) => {
    if (!tools.some((t) => t.name === name)) throw invalid(`${param} names '${name}', which is not among the ${legacy ? "functions" : "tools"}`, param);
    return name;
  };
  if ("allowed_tools" in given) return { mode: given.allowed_tools.mode, allowed: given.allowed_tools.tools.map((t) => known(t.function.name)) };
  return { mode: "named", name: known("function" in given ? given.function.name : given.name) };
}

/** The tools a call may name under `choice`. */
export function callableTools(tools: readonly ChatTool[], choice: ToolChoice): ChatTool[] {
  if (choice.mode === "named") return tools.filter((t) => t.name === choice.name);
  if (choice.mode === "none" || !choice.allowed) return [...tools];
  const allowed = choice.allowed;
  return tools.filter((t) => allowed.includes(t.name));
}

export function toolRequest(body: ToolBody): ToolRequest {
  if (body.tools != null && body.functions != null) throw invalid("send tools or the older functions, not both", "functions");
  const legacy = body.functions != null || (body.tools == null && body.function_call != null);
  const tools: ChatTool[] = legacy
    ? (body.functions ?? []).map((f) => ({ name: f.name, description: f.description, parameters: f.parameters }))
    : (body.tools ?? []).map((t) => ({ name: t.function.name, description: t.function.description, parameters: t.function.parameters }));
  checkSchemas(tools, legacy ? "functions" : "tools");
  return { tools, choice: choiceOf(body, tools, legacy), legacy };
}

type ContentPart = { type: string; text?: string; refusal?: string };
interface MessageBody {
  role: "system" | "developer" | "user" | "assistant" | "tool" | "function";
  content?: string | null | readonly ContentPart[];
  tool_calls?: readonly { id: string; function: { name: string; arguments: string } }[] | null;
  tool_call_id?: string;
  function_call?: { name: string; arguments: string } | null;
  name?: string;
}

/**
 * A message's text: its string, or its text parts and (an assistant's earlier answer) refusal
 * parts joined. The models here read text only: other parts (image_url, input_audio, file) are
 * refused by name rather than dropped.
 */
function contentText(content: MessageBody["content"], at: number, model: string): string {
  if (typeof content === "string" || content == null) return content ?? "";
  return content
    .map((part, j) => {
      const where = `messages[${at}].content[${j}]`;
      if (part.type === "text" || part.type === "refusal") {
        const text = part.type === "text" ? part.text : part.refusal;
        if (typeof text !== "string") throw invalid(`${where}.${part.type} must be string`, "messages");
        return text;
      }
      throw invalid(`model ${model} takes text only: ${part.type} content parts are not supported`, "messages");
    })
    .join("");
}

/**
 * The messages as the engine renders them. Every result must answer a call made before it, and
 * every call must be answered before the conversation goes on.
 */
export function toMessages(messages: readonly MessageBody[], model: string): ChatMessage[] {
  const open = new Map<string, { name: string; at: number }>();
  const out: ChatMessage[] = [];
  const requireAnswered = () => {
    const first = open.values().next().value;
    if (first) throw invalid(`messages[${first.at}] calls tools that the messages after it do not answer: add a tool message for each tool_call_id`, "messages");
  };
  messages.forEach((m, i) => {
    if (m.role === "tool" || m.role === "function") {
      const id = m.role === "tool" ? m.tool_call_id : [...open].find(([, call]) => call.name === m.name)?.[0];
      if (m.role === "tool" && id === undefined) throw invalid(`messages[${i}] has role tool but no tool_call_id`, "messages");
      if (id === undefined || !open.delete(id)) {
        throw invalid(`messages[${i}] answers ${m.role === "tool" ? `tool call '${id}'` : `function '${m.name}'`}, which no earlier assistant message made`, "messages");
      }
      out.push({ role: "tool", content: contentText(m.content, i, model), toolCallId: id });
      return;
    }
    requireAnswered();
    if (m.role !== "assistant" && m.content == null) throw invalid(`messages[${i}].content is required for role ${m.role}`, "messages");
    if (m.role === "assistant") {
      const calls: ToolCallMessage[] = (m.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments }));
      if (m.function_call) calls.push({ id: `function-call-${i}`, name: m.function_call.name, arguments: m.function_call.arguments });
      calls.forEach((c) => open.set(c.id, { name: c.name, at: i }));
      out.push({ role: "assistant", content: contentText(m.content, i, model), toolCalls: calls });
    } else {
      // "developer" is OpenAI's newer name for the system role.
      out.push({ role: m.role === "developer" ? "system" : m.role, content: contentText(m.content, i, model) });
    }
  });
  requireAnswered();
  return out;
}
