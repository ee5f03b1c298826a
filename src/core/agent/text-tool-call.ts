/**
 * A tool call the model wrote as text, in its family's own format, where the server did not read
 * it as a call (llama.cpp's server without --jinja, vLLM without --enable-auto-tool-choice or with
 * another model's --tool-call-parser, an Ollama model whose template has no tools): the agent sees
 * an answer with no call and ends, having done nothing the user asked.
 */
const formats: readonly RegExp[] = [
  /<tool_call>/, // Hermes, Qwen 2.5 and 3
  /\[TOOL_CALLS\]/, // Mistral
  /<\|python_tag\|>/, // Llama 3.1
  /<function=[\w.-]+>/, // Llama 3.1's custom format, Functionary
  /<\|tool_call\|>/, // Granite
  /<｜tool▁calls?▁begin｜>/, // DeepSeek V3 and R1
  /<\|channel\|>commentary to=functions\./, // gpt-oss (harmony)
  // Llama 3.2 and others without a parser: the whole answer is the call's JSON, maybe fenced.
  /^\s*(?:```(?:json)?\s*)?\[?\s*\{\s*"(?:name|function)"\s*:\s*"[\w.-]+"\s*,\s*"(?:arguments|parameters)"\s*:/,
];

/** Whether `answer` holds a tool call written as text. */
export function hasTextToolCall(answer: string): boolean {
  return formats.some((format) => format.test(answer));
}
