import type { ChatMessage, ChatRequest } from "../../core/api/chat";
import { ToolCallAssembler } from "../../core/agent/tool-call-assembler";
import { findingsTool, findingsToolName, responseFormat } from "../../core/review/findings";
import type { WispClient } from "../../client/wisp-client";
import { WispError } from "../../client/wisp-error";

export interface FindingsRequest {
  readonly model: string;
  readonly temperature: number;
  readonly maxTokens: number;
  /** The messages, asking for JSON (`asTool` false) or for the tool's call (true). */
  readonly messages: (asTool: boolean) => ChatMessage[];
}

/** The answer's JSON text, and how it was asked for. */
export interface FindingsAnswer {
  readonly json: string;
  readonly via: "response_format" | "tool";
}

/**
 * Asks for the findings as structured output: a JSON schema in `response_format` (Wisp's local
 * server, vLLM, llama.cpp, OpenAI take one); a server that refuses the field is asked again with
 * the schema as a tool the model must call, and is remembered (per base URL) as one that does.
 */
export class FindingsRequester {
  private readonly withoutSchema = new Set<string>();

  async ask(client: WispClient, baseUrl: string, request: FindingsRequest, signal: AbortSignal): Promise<FindingsAnswer> {
    if (!this.withoutSchema.has(baseUrl)) {
      try {
        return { json: await this.asJson(client, request, signal), via: "response_format" };
      } catch (error) {
        if (!refusesSchema(error)) throw error;
        this.withoutSchema.add(baseUrl);
      }
    }
    return { json: await this.asTool(client, request, signal), via: "tool" };
  }

  private async asJson(client: WispClient, request: FindingsRequest, signal: AbortSignal): Promise<string> {
    const body: ChatRequest = { ...base(request, false), response_format: responseFormat as unknown as ChatRequest["response_format"] };
    let text = "";
    for await (const delta of client.streamChat(body, signal)) text += delta.content;
    return text;
  }

  private async asTool(client: WispClient, request: FindingsRequest, signal: AbortSignal): Promise<string> {
    const body: ChatRequest = { ...base(request, true), tools: [findingsTool], tool_choice: { type: "function", function: { name: findingsToolName } } };
    const calls = new ToolCallAssembler();
    let text = "";
    for await (const delta of client.streamChat(body, signal)) {
      text += delta.content;
      if (delta.toolCalls) calls.add(delta.toolCalls);
    }
    // A model that answers in text despite the tool choice may still have written the JSON.
    return calls.toolCalls().find((c) => c.function.name === findingsToolName)?.function.arguments ?? text;
  }
}

function base(request: FindingsRequest, asTool: boolean): ChatRequest {
  return { model: request.model, messages: request.messages(asTool), temperature: request.temperature, max_tokens: request.maxTokens };
}

/** A 400/422 that names response_format or a JSON schema: the server takes no schema there. */
function refusesSchema(error: unknown): boolean {
  if (!(error instanceof WispError) || error.kind !== "bad-request") return false;
  return error.param === "response_format" || /response_format|json_schema|json schema|structured output/i.test(error.message);
}
