// POST /v1/chat/completions
import type { RoutePlugin } from "../deps";
import type { ChatMessage } from "../engines/text/chat-prompt";
import { ApiError } from "../errors";
import type { SchemaType } from "./json-schema-to-ts-provider";
import { chatLogprobs } from "./logprobs-format";
import { chatCompletionResponseSchema } from "./response-schemas";
import { samplingProperties } from "./schemas";
import { answerText, type TextResponseFormat } from "./text-response";
import { resolveTextModel, samplingSettings, stopList } from "./text-model";

const bodySchema = {
  type: "object",
  required: ["model", "messages"],
  properties: {
    ...samplingProperties,
    max_completion_tokens: samplingProperties.max_tokens,
    messages: {
      type: "array",
      minItems: 1,
      items: {
        type: "object",
        required: ["role", "content"],
        properties: {
          role: { enum: ["system", "developer", "user", "assistant"] },
          content: {
            anyOf: [
              { type: "string" },
              { type: "null" },
              { type: "array", items: { type: "object", required: ["type", "text"], properties: { type: { const: "text" }, text: { type: "string" } } } },
            ],
          },
        },
      },
    },
    logprobs: { anyOf: [{ type: "boolean" }, { type: "null" }] },
    top_logprobs: { anyOf: [{ type: "integer", minimum: 0, maximum: 20 }, { type: "null" }] },
  },
} as const;

type ChatBody = SchemaType<typeof bodySchema>;

const chatFormat: TextResponseFormat = {
  idPrefix: "chatcmpl",
  opensStream: true,
  chunk: (base, index, text, logprobs, finish) => ({
    ...base,
    object: "chat.completion.chunk",
    choices: [
      {
        index,
        delta: text === undefined ? { role: "assistant", content: "" } : finish ? {} : { content: text },
        logprobs: logprobs ? chatLogprobs(logprobs) : null,
        finish_reason: finish,
      },
    ],
  }),
  usageChunk: (base, usage) => ({ ...base, object: "chat.completion.chunk", choices: [], usage }),
  complete: (base, choices, usage) => ({
    ...base,
    object: "chat.completion",
    choices: choices.map((c, index) => ({
      index,
      message: { role: "assistant", content: c.text, refusal: null, tool_calls: [], function_call: null },
      logprobs: c.logprobs ? chatLogprobs(c.logprobs) : null,
      finish_reason: c.finishReason,
      stop_reason: null,
    })),
    usage,
  }),
};

function toMessages(body: ChatBody): ChatMessage[] {
  return body.messages.map((m) => ({
    // "developer" is OpenAI's newer name for the system role.
    role: m.role === "developer" ? "system" : m.role,
    content: typeof m.content === "string" ? m.content : (m.content ?? []).map((p) => p.text).join(""),
  }));
}

/** POST /chat/completions (under /v1). */
export const chatCompletionRoutes: RoutePlugin = async (app, { deps }) => {
  app.post("/chat/completions", { schema: { body: bodySchema, response: { 200: chatCompletionResponseSchema } } }, async (request, reply) => {
    const body = request.body;
    if (body.top_logprobs != null && !body.logprobs) {
      throw new ApiError(400, "top_logprobs requires logprobs: true", "invalid_request_error", "top_logprobs");
    }
    const { entry, model } = await resolveTextModel(deps, body.model);
    const prompt = deps.textEngine.chatPrompt(model, toMessages(body));
    const job = {
      prompts: [prompt],
      promptParam: "messages" as const,
      n: body.n ?? 1,
      maxTokens: body.max_completion_tokens ?? body.max_tokens ?? Number.MAX_SAFE_INTEGER,
      stop: stopList(body.stop),
      sampling: await samplingSettings(deps, entry, model, body),
      topLogprobs: body.logprobs ? (body.top_logprobs ?? 0) : undefined,
    };
    await answerText(deps, request, reply, entry, job, { enabled: body.stream === true, includeUsage: body.stream_options?.include_usage === true }, chatFormat);
  });
};
