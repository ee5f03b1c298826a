// POST /v1/chat/completions
import type { RoutePlugin } from "../deps";
import { ApiError } from "../errors";
import { callableTools, toMessages, toolMessageProperties, toolProperties, toolRequest } from "./chat-tools";
import { chatLogprobs } from "./logprobs-format";
import { chatCompletionResponseSchema } from "./response-schemas";
import { samplingProperties } from "./schemas";
import { answerText, answerWith, type TextResponseFormat } from "./text-response";
import { resolveTextModel, samplingSettings, stopList, streamSettings } from "./text-model";
import { answerTools } from "./tool-answer";
import { upstreamForwarder } from "./upstream-forward";

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
        required: ["role"],
        properties: {
          role: { enum: ["system", "developer", "user", "assistant", "tool", "function"] },
          ...toolMessageProperties,
          content: {
            anyOf: [
              { type: "string" },
              { type: "null" },
              // Any part type: toMessages takes text and refusal parts and names the others it cannot.
              { type: "array", items: { type: "object", required: ["type"], properties: { type: { type: "string" }, text: { type: "string" }, refusal: { type: "string" } } } },
            ],
          },
        },
      },
    },
    logprobs: { anyOf: [{ type: "boolean" }, { type: "null" }] },
    modalities: { anyOf: [{ type: "array", items: { type: "string" } }, { type: "null" }] },
    audio: { anyOf: [{ type: "object" }, { type: "null" }] },
    top_logprobs: { anyOf: [{ type: "integer", minimum: 0, maximum: 20 }, { type: "null" }] },
    ...toolProperties,
  },
} as const;

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
  nullUsageInChunks: true,
  complete: (base, choices, usage) => ({
    ...base,
    object: "chat.completion",
    choices: choices.map((c, index) => ({
      index,
      // No tool_calls: OpenAI leaves the field out when there are none, and refuses an empty list in
      // an assistant message a client sends back.
      message: { role: "assistant", content: c.text, refusal: null, function_call: null },
      logprobs: c.logprobs ? chatLogprobs(c.logprobs) : null,
      finish_reason: c.finishReason,
      stop_reason: null,
    })),
    usage,
  }),
};

/**
 * The models write text only: a request for audio output is refused rather than answered without
 * the audio it asked for (a client reading message.audio would find nothing).
 */
function textOutputOnly(body: { modalities?: string[] | null; audio?: object | null }): void {
  const other = body.modalities?.find((m) => m !== "text");
  if (other !== undefined) throw new ApiError(400, `the server's models output text only: modalities '${other}' is not supported`, "invalid_request_error", "modalities", "invalid_value");
  if (body.audio != null) throw new ApiError(400, "the server's models output text only: audio output is not supported", "invalid_request_error", "audio", "invalid_value");
}

/** POST /chat/completions (under /v1). */
export const chatCompletionRoutes: RoutePlugin = async (app, { deps }) => {
  app.post("/chat/completions", { preValidation: upstreamForwarder(deps, "/chat/completions"), schema: { body: bodySchema, response: { 200: chatCompletionResponseSchema } } }, async (request, reply) => {
    const body = request.body;
    if (body.top_logprobs != null && !body.logprobs) {
      throw new ApiError(400, "top_logprobs requires logprobs: true", "invalid_request_error", "top_logprobs");
    }
    const stream = streamSettings(body);
    textOutputOnly(body);
    const tools = toolRequest(body);
    const messages = toMessages(body.messages, body.model);
    const { entry, model } = await resolveTextModel(deps, body.model);
    const offersTools = tools.tools.length > 0 && tools.choice.mode !== "none";
    // tool_choice none: the model is not shown the tools, so it answers in text.
    const rendered = deps.textEngine.toolChatPrompt(model, messages, offersTools ? tools.tools : []);
    const job = {
      prompts: [rendered.tokens],
      promptParam: "messages" as const,
      n: body.n ?? 1,
      maxTokens: body.max_completion_tokens ?? body.max_tokens ?? Number.MAX_SAFE_INTEGER,
      stop: stopList(body.stop),
      sampling: await samplingSettings(deps, entry, model, body),
      topLogprobs: body.logprobs ? (body.top_logprobs ?? 0) : undefined,
    };
    if (!offersTools) return answerText(deps, request, reply, entry, job, stream, chatFormat);
    const choice = tools.choice;
    const offered = callableTools(tools.tools, choice);
    const plan = {
      layout: rendered.layout,
      names: offered.map((t) => t.name),
      forced: choice.mode !== "auto",
      grammar: await deps.textEngine.toolCallGrammar(entry.id, entry.path, rendered.layout, offered),
    };
    await answerWith({ deps, request, reply, entry }, chatFormat.idPrefix, (ctx) => answerTools(ctx, { job, plan, legacy: tools.legacy, stream }));
  });
};
