// The JSON answers of the text routes (not their streams, which are written raw). fastify
// serializes with them, faster than JSON.stringify, and sends only the fields named here.
const integer = { type: "integer" } as const;
const number = { type: "number" } as const;
const string = { type: "string" } as const;
const nothing = { type: "null" } as const;
const strings = { type: "array", items: string } as const;
const integers = { type: "array", items: integer } as const;

const usage = {
  type: "object",
  properties: {
    prompt_tokens: integer,
    completion_tokens: integer,
    total_tokens: integer,
    prompt_tokens_details: { type: "object", properties: { cached_tokens: integer } },
  },
} as const;

/** The fields every answer has (ResponseBase in text-response.ts, the object type, usage) around its choices. */
function answer<const Choice extends object>(choice: Choice) {
  return {
    type: "object",
    properties: {
      id: string,
      object: string,
      created: integer,
      model: string,
      system_fingerprint: string,
      choices: { type: "array", items: choice },
      usage,
    },
  } as const;
}

/** OpenAI's CreateCompletionResponse, as /v1/completions fills it in. */
export const completionResponseSchema = answer({
  type: "object",
  properties: {
    index: integer,
    text: string,
    logprobs: {
      type: ["object", "null"],
      properties: {
        tokens: strings,
        token_logprobs: { type: "array", items: number },
        // One object per token: the alternatives' text -> logprob.
        top_logprobs: { type: "array", items: { type: "object", additionalProperties: number } },
        text_offset: integers,
      },
    },
    finish_reason: { type: ["string", "null"] },
  },
});

const functionCall = { type: "object", properties: { name: string, arguments: string } } as const;

const tokenLogprob = { token: string, logprob: number, bytes: integers } as const;

/** OpenAI's CreateChatCompletionResponse, as /v1/chat/completions fills it in. */
export const chatCompletionResponseSchema = answer({
  type: "object",
  properties: {
    index: integer,
    message: {
      type: "object",
      properties: {
        role: string,
        content: { type: ["string", "null"] },
        refusal: nothing,
        tool_calls: { type: "array", items: { type: "object", properties: { id: string, type: string, function: functionCall } } },
        function_call: { ...functionCall, type: ["object", "null"] },
      },
    },
    logprobs: {
      type: ["object", "null"],
      properties: {
        content: {
          type: "array",
          items: { type: "object", properties: { ...tokenLogprob, top_logprobs: { type: "array", items: { type: "object", properties: tokenLogprob } } } },
        },
        refusal: nothing,
      },
    },
    finish_reason: { type: ["string", "null"] },
    stop_reason: nothing,
  },
});
