// The grammars generation runs under: JSON (any, or what a schema accepts) and one tool call,
// their strings in whole characters (see whole-characters.ts).
import type { Llama, LlamaGrammar } from "node-llama-cpp";
import { EngineInputError } from "../../engine-input-error";
import type { ChatTool } from "./chat-prompt";
import { refsIntoDefs } from "./schema-refs";
import { gbnfLiteral, grammarSchema, toolCallGrammar } from "./tool-call-grammar";
import type { CallLayout } from "./tool-call-layout";
import { wholeCharacterStrings } from "./whole-characters";

/** `grammar` with its strings in whole characters (and `edit`ed), its other settings as they are. */
function inWholeCharacters(llama: Llama, grammar: LlamaGrammar, edit = (gbnf: string) => gbnf): Promise<LlamaGrammar> {
  const { stopGenerationTriggers, trimWhitespaceSuffix } = grammar;
  return llama.createGrammar({ grammar: edit(wholeCharacterStrings(grammar.grammar)), stopGenerationTriggers, trimWhitespaceSuffix });
}

/**
 * node-llama-cpp's JSON-schema number rules allow an exponent of up to 16 digits on integers and
 * numbers alike: "7E0" fails a client's integer check (pydantic, zod .int()), "1e9999" parses as
 * Infinity. Integers here have no fraction or exponent and at most 15 digits (always a safe
 * integer); numbers an exponent of at most 2 digits (always finite).
 */
export function boundedNumbers(gbnf: string): string {
  return gbnf
    .replace(/^integer-number-rule ::= .*$/m, 'integer-number-rule ::= "-"? ("0" | [1-9] [0-9]{0,14})')
    .replace(/^fractional-number-rule ::= .*$/m, 'fractional-number-rule ::= "-"? ("0" | [1-9] [0-9]{0,15}) ("." [0-9]{1,16})? ([eE] [-+]? [0-9]{1,2})?');
}

/**
 * node-llama-cpp's JSON-schema grammars end the root in "\n\n\n\n" [\n]* for its chat loop to stop
 * on; this engine stops when the grammar is complete: the answer ends at its closing brace instead
 * of in four or more billed newlines (finish_reason length under a tight max_tokens).
 */
export function withoutTrailingNewlines(gbnf: string): string {
  return gbnf.replace(/^(root ::= .*?) "\\n\\n\\n\\n" \[\\n\]\*$/m, "$1");
}

/**
 * A grammar for JSON that `schema` accepts, read the way tool-call-grammar.ts's grammarSchema reads
 * it (anyOf as oneOf, allOf merged): node-llama-cpp's JSON-schema grammar would otherwise write null
 * for those. A schema it cannot turn into a grammar is the client's error, reported on `param`.
 */
async function schemaGrammar(llama: Llama, schema: unknown, message: string, param: string): Promise<LlamaGrammar> {
  try {
    return await inWholeCharacters(llama, await llama.createGrammarForJsonSchema(grammarSchema(refsIntoDefs(schema)) as never), (gbnf) => withoutTrailingNewlines(boundedNumbers(gbnf)));
  } catch (error) {
    throw new EngineInputError(`${message}: ${(error as Error).message}`, param);
  }
}

/** Any JSON, or JSON that `schema` accepts; a schema it cannot follow is reported on `param`, the field it came in. */
export async function jsonGrammar(llama: Llama, schema?: { schema: object; param: string }): Promise<LlamaGrammar> {
  if (!schema) return inWholeCharacters(llama, await llama.getGrammarFor("json"));
  return schemaGrammar(llama, schema.schema, "unsupported JSON schema", schema.param);
}

/**
 * `grammar` (the answer's format: response_format, guided_json), or else `marker`, the start of a
 * tool call: under tool_choice auto the format holds the text answer, and the model may still
 * call a tool instead (the marker is a stop string; the call goes on under the call grammar).
 */
export function answerOrCall(llama: Llama, grammar: LlamaGrammar, marker: string): Promise<LlamaGrammar> {
  const { stopGenerationTriggers, trimWhitespaceSuffix } = grammar;
  const root = "wisp-answer-or-call";
  return llama.createGrammar({
    grammar: `${root} ::= ${grammar.rootRuleName} | ${gbnfLiteral(marker)}\n${grammar.grammar}`,
    rootRuleName: root,
    stopGenerationTriggers,
    trimWhitespaceSuffix,
  });
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
