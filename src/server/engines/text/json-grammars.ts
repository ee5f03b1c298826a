// The grammars generation runs under: JSON (any, or what a schema accepts) and one tool call,
// their strings in whole characters (see whole-characters.ts).
import type { Llama, LlamaGrammar } from "node-llama-cpp";
import { EngineInputError } from "../../engine-input-error";
import type { ChatTool } from "./chat-prompt";
import { grammarSchema, toolCallGrammar } from "./tool-call-grammar";
import type { CallLayout } from "./tool-call-layout";
import { wholeCharacterStrings } from "./whole-characters";

/** `grammar` with its strings in whole characters, its other settings as they are. */
function inWholeCharacters(llama: Llama, grammar: LlamaGrammar): Promise<LlamaGrammar> {
  const { stopGenerationTriggers, trimWhitespaceSuffix } = grammar;
  return llama.createGrammar({ grammar: wholeCharacterStrings(grammar.grammar), stopGenerationTriggers, trimWhitespaceSuffix });
}

/**
 * A grammar for JSON that `schema` accepts, read the way tool-call-grammar.ts's grammarSchema reads
 * it (anyOf as oneOf, allOf merged): node-llama-cpp's JSON-schema grammar would otherwise write null
 * for those. A schema it cannot turn into a grammar is the client's error, reported on `param`.
 */
async function schemaGrammar(llama: Llama, schema: unknown, message: string, param: string): Promise<LlamaGrammar> {
  try {
    return await inWholeCharacters(llama, await llama.createGrammarForJsonSchema(grammarSchema(schema) as never));
  } catch (error) {
    throw new EngineInputError(`${message}: ${(error as Error).message}`, param);
  }
}

/** Any JSON, or JSON that `schema` accepts (guided_json, response_format). */
export async function jsonGrammar(llama: Llama, schema?: object): Promise<LlamaGrammar> {
  if (!schema) return inWholeCharacters(llama, await llama.getGrammarFor("json"));
  return schemaGrammar(llama, schema, "unsupported JSON schema", "guided_json");
}

/** One call to one of `tools` in `layout` (see tool-call-grammar.ts). */
export async function callGrammar(llama: Llama, layout: CallLayout, tools: readonly ChatTool[]): Promise<LlamaGrammar> {
  const argumentGrammars = await Promise.all(
    tools.map(async (tool, i) => {
      if (!tool.parameters) return { name: tool.name, argumentsGbnf: 'root ::= "{}"' };
      const grammar = await schemaGrammar(llama, tool.parameters, `tools[${i}].function.parameters: unsupported JSON schema`, "tools");
      return { name: tool.name, argumentsGbnf: grammar.grammar };
    }),
  );
  return llama.createGrammar({ grammar: toolCallGrammar(layout, argumentGrammars) });
}
