// Renders chat messages with the model's own chat template from the GGUF.
import { JinjaTemplateChatWrapper, LlamaText, type ChatHistoryItem, type ChatModelFunctionCall, type ChatModelFunctions, type LlamaModel, type Token } from "node-llama-cpp";
import { EngineInputError } from "../../engine-input-error";
import { inertTokenizer } from "./inert-text";
import type { CallLayout } from "./tool-call-layout";

export interface ToolCallMessage {
  id: string;
  name: string;
  /** JSON text, as clients send it back. */
  arguments: string;
}

export type ChatMessage =
  | { role: "system" | "user"; content: string }
  | { role: "assistant"; content: string; toolCalls?: readonly ToolCallMessage[] }
  | { role: "tool"; content: string; toolCallId: string };

export interface ChatTool {
  name: string;
  description?: string;
  /** JSON schema of the arguments; none: the function takes no arguments. */
  parameters?: object;
}

export interface RenderedChat {
  tokens: Token[];
  /** How this model writes a call (its template's layout, else a generic one). */
  layout: CallLayout;
  /** Whether the model's own template lays out the tools and calls. */
  templateTools: boolean;
}

/** JSON text as a value (what the template serializes again); other text as it is. */
function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function toHistory(messages: readonly ChatMessage[]): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = [];
  // Calls by id: a tool message fills in the result of the call it answers.
  const calls = new Map<string, ChatModelFunctionCall>();
  for (const m of messages) {
    if (m.role === "tool") {
      const call = calls.get(m.toolCallId);
      if (call) call.result = parsedOrText(m.content);
    } else if (m.role === "assistant") {
      const response: (string | ChatModelFunctionCall)[] = m.content === "" ? [] : [m.content];
      (m.toolCalls ?? []).forEach((c, i) => {
        const call: ChatModelFunctionCall = { type: "functionCall", name: c.name, params: parsedOrText(c.arguments), result: undefined, startsNewChunk: i === 0 };
        calls.set(c.id, call);
        response.push(call);
      });
      // After calls and their results the model's turn goes on (the template closes the results).
      const last = history.at(-1);
      if (last?.type === "model" && typeof last.response.at(-1) === "object") last.response.push(...response);
      else history.push({ type: "model", response });
    } else {
      history.push({ type: m.role, text: m.content });
    }
  }
  // An empty model turn at the end makes the template render the generation prompt; after
  // calls and results the model's turn is open already.
  const last = history.at(-1);
  if (last?.type !== "model" || typeof last.response.at(-1) !== "object") history.push({ type: "model", response: [] });
  return history;
}

/** The model's template as a chat wrapper; making one renders probes of the template (a few ms), so callers keep it. */
export function chatWrapper(model: LlamaModel): JinjaTemplateChatWrapper {
  const template = model.fileInfo.metadata.tokenizer.chat_template;
  if (!template) throw new EngineInputError("this model has no chat template: use /v1/completions", "model");
  // No thinking mode (enable_thinking: false): OpenAI-style clients show the content as the answer.
  return new JinjaTemplateChatWrapper({ template, reasoning: false });
}

function toFunctions(tools: readonly ChatTool[]): ChatModelFunctions {
  return Object.fromEntries(tools.map((t) => [t.name, { description: t.description, params: t.parameters as never }]));
}

const text = (value: unknown) => LlamaText(value as never).toString();

/**
 * With tools: the template receives them (and earlier calls and results) where it lays them out
 * itself; otherwise the tools are described in a system message in a generic call layout.
 */
export function renderToolChatPrompt(model: LlamaModel, messages: readonly ChatMessage[], tools: readonly ChatTool[], wrapper = chatWrapper(model)): RenderedChat {
  let state: ReturnType<JinjaTemplateChatWrapper["generateContextState"]>;
  try {
    state = wrapper.generateContextState({ chatHistory: toHistory(messages), availableFunctions: tools.length > 0 ? toFunctions(tools) : undefined });
  } catch (error) {
    // Templates refuse conversations they were not trained on with raise_exception (Gemma's and
    // Mistral's: roles must alternate, starting with the user). The client gets that reason, not
    // an "internal server error" that hides what to change.
    throw new EngineInputError(`the model's chat template refused these messages: ${(error as Error).message}`, "messages", "invalid_value");
  }
  const call = wrapper.settings.functions.call;
  return {
    tokens: state.contextText.tokenize(inertTokenizer(model)),
    layout: { prefix: text(call.prefix), paramsPrefix: text(call.paramsPrefix), suffix: text(call.suffix) },
    templateTools: wrapper.usingJinjaFunctionCallTemplate,
  };
}
