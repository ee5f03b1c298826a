// POST /v1/completions (with suffix = fill-in-the-middle)
import type { LlamaModel, Token } from "node-llama-cpp";
import type { RoutePlugin } from "../deps";
import type { ChoiceResult } from "../engines/text/types";
import { ApiError } from "../errors";
import { completionLogprobs } from "./logprobs-format";
import { samplingProperties, type SamplingBody } from "./schemas";
import { answerText, type TextResponseFormat } from "./text-response";
import { resolveTextModel, samplingSettings, stopList } from "./text-model";

interface CompletionBody extends SamplingBody {
  prompt: string | [string] | number[];
  suffix?: string | null;
  echo?: boolean | null;
  logprobs?: number | null;
}

const bodySchema = {
  type: "object",
  required: ["model", "prompt"],
  properties: {
    ...samplingProperties,
    // 0 evaluates the prompt and generates nothing (a warm-up), as OpenAI's completions API allows.
    max_tokens: { anyOf: [{ type: "integer", minimum: 0 }, { type: "null" }] },
    // One prompt per request: a list of several prompts (batching) is not supported.
    prompt: {
      anyOf: [
        { type: "string" },
        { type: "array", minItems: 1, maxItems: 1, items: { type: "string" } },
        { type: "array", minItems: 1, items: { type: "integer", minimum: 0 } },
      ],
    },
    suffix: { anyOf: [{ type: "string" }, { type: "null" }] },
    echo: { anyOf: [{ type: "boolean" }, { type: "null" }] },
    logprobs: { anyOf: [{ type: "integer", minimum: 0, maximum: 20 }, { type: "null" }] },
  },
} as const;

function checkTokenIds(model: LlamaModel, ids: number[]): Token[] {
  const vocabulary = model.fileInfo.metadata.tokenizer.ggml.tokens.length;
  const bad = ids.find((id) => id >= vocabulary);
  if (bad !== undefined) throw new ApiError(400, `prompt token id ${bad} is outside the vocabulary (0..${vocabulary - 1})`, "invalid_request_error", "prompt");
  return ids as Token[];
}

function completionFormat(echoText: string): TextResponseFormat {
  const choice = (c: ChoiceResult, index: number) => ({
    index,
    text: echoText + c.text,
    logprobs: c.logprobs ? completionLogprobs(c.logprobs, echoText.length) : null,
    finish_reason: c.finishReason,
  });
  return {
    idPrefix: "cmpl",
    // Streaming with echo: the prompt goes out as each choice's opening chunk.
    opensStream: echoText !== "",
    chunk: (base, index, text, logprobs, finish) => ({
      ...base,
      object: "text_completion",
      choices: [{ index, text: text ?? echoText, logprobs: logprobs ? completionLogprobs(logprobs) : null, finish_reason: finish }],
    }),
    usageChunk: (base, usage) => ({ ...base, object: "text_completion", choices: [], usage }),
    complete: (base, choices, usage) => ({ ...base, object: "text_completion", choices: choices.map(choice), usage }),
  };
}

export const registerCompletionRoutes: RoutePlugin = (app, deps) => {
  app.post<{ Body: CompletionBody }>("/v1/completions", { schema: { body: bodySchema } }, async (request, reply) => {
    const body = request.body;
    const { entry, model } = await resolveTextModel(deps, body.model);
    const promptText = typeof body.prompt === "string" ? body.prompt : typeof body.prompt[0] === "string" ? body.prompt[0] : undefined;
    const tokens = promptText === undefined ? checkTokenIds(model, body.prompt as number[]) : deps.textEngine.tokenizePrompt(model, promptText);
    const prompt = body.suffix != null ? deps.textEngine.infillPrompt(model, promptText ?? model.detokenize(tokens), body.suffix) : tokens;
    const echoText = body.echo ? (promptText ?? model.detokenize(tokens)) : "";
    const job = {
      prompt,
      promptParam: "prompt" as const,
      n: body.n ?? 1,
      maxTokens: body.max_tokens ?? 16,
      stop: stopList(body.stop),
      sampling: await samplingSettings(deps, entry, model, body),
      topLogprobs: body.logprobs ?? undefined,
    };
    const stream = { enabled: body.stream === true, includeUsage: body.stream_options?.include_usage === true };
    await answerText(deps, request, reply, entry, job, stream, completionFormat(echoText));
  });
};
