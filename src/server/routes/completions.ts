// POST /v1/completions (with suffix = fill-in-the-middle)
import type { LlamaModel, Token } from "node-llama-cpp";
import type { RoutePlugin } from "../deps";
import { fileLines } from "../engines/text/line-candidates";
import type { ChoiceResult, TokenLogprob } from "../engines/text/types";
import { ApiError } from "../errors";
import type { SchemaType } from "../json-schema-to-ts-provider";
import { completionLogprobs, TextOffsets } from "./logprobs-format";
import { completionResponseSchema } from "./response-schemas";
import { samplingProperties } from "./schemas";
import { answerText, type TextResponseFormat } from "./text-response";
import { resolveTextModel, samplingSettings, stopList, streamSettings } from "./text-model";
import { upstreamForwarder } from "./upstream-forward";

/** Prompts in one request: each is generated in turn, so a long list is a long wait. */
const MAX_PROMPTS = 16;

const bodySchema = {
  type: "object",
  required: ["model", "prompt"],
  properties: {
    ...samplingProperties,
    // 0 evaluates the prompt and generates nothing (a warm-up), as OpenAI's completions API allows.
    max_tokens: { anyOf: [{ type: "integer", minimum: 0 }, { type: "null" }] },
    // A text, token ids, or a list of either: each prompt of a list gets its own n choices.
    prompt: {
      anyOf: [
        { type: "string" },
        { type: "array", minItems: 1, maxItems: MAX_PROMPTS, items: { type: "string" } },
        { type: "array", minItems: 1, items: { type: "integer", minimum: 0 } },
        { type: "array", minItems: 1, maxItems: MAX_PROMPTS, items: { type: "array", minItems: 1, items: { type: "integer", minimum: 0 } } },
      ],
    },
    suffix: { anyOf: [{ type: "string" }, { type: "null" }] },
    echo: { anyOf: [{ type: "boolean" }, { type: "null" }] },
    logprobs: { anyOf: [{ type: "integer", minimum: 0, maximum: 20 }, { type: "null" }] },
    // Candidates per prompt, of which the n likeliest are returned (OpenAI's range).
    best_of: { anyOf: [{ type: "integer", minimum: 0, maximum: 20 }, { type: "null" }] },
  },
} as const;

type CompletionBody = SchemaType<typeof bodySchema>;

function checkTokenIds(model: LlamaModel, ids: number[]): Token[] {
  const vocabulary = model.fileInfo.metadata.tokenizer.ggml.tokens.length;
  const bad = ids.find((id) => id >= vocabulary);
  if (bad !== undefined) throw new ApiError(400, `prompt token id ${bad} is outside the vocabulary (0..${vocabulary - 1})`, "invalid_request_error", "prompt");
  return ids as Token[];
}

/** best_of: each prompt's `of` candidates, of which the `n` likeliest are answered. */
interface BestOf {
  of: number;
  n: number;
  /** The request asked for logprobs (the ranking needs them either way). */
  logprobs: boolean;
}

/** Mean log probability of a choice's tokens: OpenAI's "highest log probability per token". */
function perToken(choice: ChoiceResult): number {
  const logprobs = choice.logprobs ?? [];
  // No token to judge by: ranked last.
  return logprobs.length === 0 ? Number.NEGATIVE_INFINITY : logprobs.reduce((sum, l) => sum + l.logprob, 0) / logprobs.length;
}

/** Each prompt's `best.n` likeliest candidates, likeliest first, prompt by prompt. */
function bestChoices(choices: readonly ChoiceResult[], best: BestOf): ChoiceResult[] {
  const picked: ChoiceResult[] = [];
  for (let start = 0; start < choices.length; start += best.of) {
    const ranked = choices.slice(start, start + best.of).toSorted((a, b) => perToken(b) - perToken(a));
    picked.push(...ranked.slice(0, best.n).map((c) => (best.logprobs ? c : { ...c, logprobs: undefined })));
  }
  return picked;
}

/** `echoes[i]`: the prompt text choice i starts with ("" without echo). */
function completionFormat(echoes: readonly string[], best?: BestOf): TextResponseFormat {
  const echo = (index: number) => echoes[index] ?? "";
  const choice = (c: ChoiceResult, index: number) => ({
    index,
    text: echo(index) + c.text,
    logprobs: c.logprobs ? completionLogprobs(c.logprobs, new TextOffsets(echo(index).length)) : null,
    finish_reason: c.finishReason,
  });
  // text_offset counts from the start of the choice's whole text, as unstreamed: each chunk goes on
  // from where the choice's previous one ended.
  const offsets = new Map<number, TextOffsets>();
  const streamedLogprobs = (index: number, logprobs: TokenLogprob[]) => {
    const choiceOffsets = offsets.get(index) ?? new TextOffsets(echo(index).length);
    offsets.set(index, choiceOffsets);
    return completionLogprobs(logprobs, choiceOffsets);
  };
  return {
    idPrefix: "cmpl",
    // Streaming with echo: the prompt goes out as each choice's opening chunk.
    opensStream: echoes.some((e) => e !== ""),
    chunk: (base, index, text, logprobs, finish) => ({
      ...base,
      object: "text_completion",
      choices: [{ index, text: text ?? echo(index), logprobs: logprobs ? streamedLogprobs(index, logprobs) : null, finish_reason: finish }],
    }),
    usageChunk: (base, usage) => ({ ...base, object: "text_completion", choices: [], usage }),
    nullUsageInChunks: false,
    complete: (base, choices, usage) => ({ ...base, object: "text_completion", choices: (best ? bestChoices(choices, best) : choices).map(choice), usage }),
  };
}

/** The request's best_of, when it asks for more candidates than answers (only then is there a choice to make). */
function bestOf(body: CompletionBody, n: number): BestOf | undefined {
  if (body.best_of == null) return undefined;
  if (body.best_of < n) throw new ApiError(400, `best_of must be greater than or equal to n (${body.best_of} < ${n})`, "invalid_request_error", "best_of", "invalid_value");
  if (body.best_of === n) return undefined;
  if (body.stream === true) throw new ApiError(400, "best_of greater than n cannot be streamed: the best are known only once all are generated", "invalid_request_error", "best_of", "invalid_value");
  return { of: body.best_of, n, logprobs: body.logprobs != null };
}

/** The request's prompts: one text or token list, or a list of them. */
function promptList(prompt: CompletionBody["prompt"]): (string | number[])[] {
  if (typeof prompt === "string") return [prompt];
  if (prompt.every((p) => typeof p === "number")) return [prompt as number[]];
  return prompt as (string | number[])[];
}

/** POST /completions (under /v1). */
export const completionRoutes: RoutePlugin = async (app, { deps }) => {
  app.post("/completions", { preValidation: upstreamForwarder(deps, "/completions"), schema: { body: bodySchema, response: { 200: completionResponseSchema } } }, async (request, reply) => {
    const body = request.body;
    const stream = streamSettings(body);
    const { entry, model } = await resolveTextModel(deps, body.model);
    if (body.echo && body.logprobs != null) {
      throw new ApiError(400, "echo with logprobs (log probabilities of the prompt's tokens) is not supported: drop one of them", "invalid_request_error", "logprobs");
    }
    const n = body.n ?? 1;
    const best = bestOf(body, n);
    const maxTokens = body.max_tokens ?? 16;
    const prompts = promptList(body.prompt).map((p) => {
      const text = typeof p === "string" ? p : undefined;
      const tokens = text === undefined ? checkTokenIds(model, p as number[]) : deps.textEngine.tokenizePrompt(model, text);
      const prefix = text ?? model.detokenize(tokens);
      const fim = body.suffix != null ? deps.textEngine.healedInfill(model, prefix, body.suffix, maxTokens) : undefined;
      const file = body.suffix != null ? fileLines(prefix, body.suffix) : undefined;
      return { tokens: fim?.prompt ?? tokens, heal: fim?.heal, file, echo: body.echo ? prefix : "" };
    });
    const job = {
      prompts: prompts.map((p) => p.tokens),
      heals: prompts.map((p) => p.heal),
      files: prompts.map((p) => p.file),
      promptParam: "prompt" as const,
      n: best?.of ?? n,
      maxTokens,
      stop: stopList(body.stop),
      sampling: await samplingSettings(deps, entry, model, body),
      topLogprobs: body.logprobs ?? (best ? 0 : undefined),
    };
    await answerText(deps, request, reply, entry, job, stream, completionFormat(prompts.flatMap((p) => Array<string>(n).fill(p.echo)), best));
  });
};
