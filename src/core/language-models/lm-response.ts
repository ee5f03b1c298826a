/**
 * A streamed `/v1/chat/completions` answer as the parts the editor's chat takes: text as it
 * arrives, then each tool call whole with its arguments parsed (the API streams them in pieces).
 */
import type { Usage } from "../api/usage";
import type { AgentStreamDelta } from "../agent/agent-loop";
import { ToolCallAssembler } from "../agent/tool-call-assembler";

export type LmResponsePart =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "toolCall"; readonly callId: string; readonly name: string; readonly input: Record<string, unknown> };

export async function* lmResponseParts(stream: AsyncIterable<AgentStreamDelta>, onUsage: (usage: Usage) => void): AsyncGenerator<LmResponsePart, void, undefined> {
  const assembler = new ToolCallAssembler();
  for await (const delta of stream) {
    if (delta.usage) onUsage(delta.usage);
    if (delta.toolCalls) assembler.add(delta.toolCalls);
    if (delta.content !== "") yield { kind: "text", text: delta.content };
  }
  for (const call of assembler.toolCalls()) {
    yield { kind: "toolCall", callId: call.id, name: call.function.name, input: toolInput(call.function.name, call.function.arguments) };
  }
}

/** The editor's tool-call part holds an object: arguments that are not one end the answer with a readable error. */
function toolInput(name: string, argumentsText: string): Record<string, unknown> {
  if (argumentsText.trim() === "") return {};
  let input: unknown;
  try {
    input = JSON.parse(argumentsText);
  } catch (error) {
    throw new Error(`The model called the tool ${name} with arguments that are not valid JSON (${(error as Error).message}).`);
  }
  if (input === null || typeof input !== "object" || Array.isArray(input)) throw new Error(`The model called the tool ${name} with arguments that are not a JSON object.`);
  return input as Record<string, unknown>;
}
