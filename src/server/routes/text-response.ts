// Runs a generation for a text route and answers with one JSON body or an SSE stream. A client
// that goes away aborts the generation, which frees its sequences at once.
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Token } from "node-llama-cpp";
import { randomUUID } from "node:crypto";
import { encodeSseEvent } from "../../core/api/sse";
import type { ServerDeps } from "../deps";
import { NOTHING_USED, partialUsageOf, type PartialUsage } from "../engines/text/partial-usage";
import type { ChoiceResult, FileLines, FinishReason, GenerationRequest, GenerationResult, PromptStats, TokenHealing, TokenLogprob } from "../engines/text/types";
import { errorBody, toApiError } from "../errors";
import { markFirstToken } from "../metrics/request-labels";
import type { ModelEntry } from "../models/registry";
import { SseWriter } from "./sse-writer";

export interface ResponseBase {
  id: string;
  created: number;
  model: string;
  system_fingerprint: string;
}

/** How a route shapes its bodies (chat and completions differ only here). */
export interface TextResponseFormat {
  idPrefix: string;
  /** Stream chunk for one choice; `text` undefined on the opening chunk. */
  chunk(base: ResponseBase, index: number, text: string | undefined, logprobs: TokenLogprob[] | undefined, finish: FinishReason | null): object;
  usageChunk(base: ResponseBase, usage: Usage): object;
  complete(base: ResponseBase, choices: ChoiceResult[], usage: Usage): object;
  /** Whether the stream opens with a chunk per choice (chat's role chunk, echoed prompts). */
  opensStream: boolean;
  /** Whether chunks before the usage chunk say `usage: null` (chat's stream schema has it; completions' has no null usage). */
  nullUsageInChunks: boolean;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number };
}

/** What a route asks for: one prompt (chat) or several (completions), each with `n` choices. */
export type JobRequest = Omit<GenerationRequest, "signal" | "onText" | "onPromptReady" | "prompt" | "heal" | "file"> & {
  prompts: readonly (readonly Token[])[];
  /** Per prompt, its token healing if any. */
  heals?: readonly (TokenHealing | undefined)[];
  /** Per prompt: what a one-line answer may take from its file (see fileLines). */
  files?: readonly (FileLines | undefined)[];
};

/**
 * The usage a client reads. cached_tokens: the prompt's tokens the engine did not evaluate again,
 * kept in a sequence from an earlier request. With n choices the prompt is evaluated once per
 * sequence: it is what the prompt counted once saved, never more than the prompt; a prompt not
 * evaluated at all (a line copied from the file) counts only what was kept.
 */
export const usageOf = (r: Pick<GenerationResult, "promptTokens" | "completionTokens" | "prompt">): Usage => ({
  prompt_tokens: r.promptTokens,
  completion_tokens: r.completionTokens,
  total_tokens: r.promptTokens + r.completionTokens,
  prompt_tokens_details: { cached_tokens: Math.min(r.prompt.cached, Math.max(0, r.promptTokens - r.prompt.evaluated)) },
});

export function promptHeaders(stats: PromptStats): Record<string, string> {
  return { "x-wisp-prompt-tokens-evaluated": String(stats.evaluated), "x-wisp-prompt-tokens-cached": String(stats.cached) };
}

/** An AbortSignal that fires when the client closes the connection before the answer ends. */
function disconnectSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.on("close", () => {
    if (!reply.raw.writableFinished) controller.abort(new Error("client disconnected"));
  });
  return controller.signal;
}

/** Ends a response nobody is listening to any more, without fastify trying to send a body. */
function abandon(reply: FastifyReply): void {
  if (!reply.sent) reply.hijack();
  reply.raw.end();
}

/** One request being answered: what every text answer (plain or with tools) starts from. */
export interface AnswerContext {
  deps: ServerDeps;
  request: FastifyRequest;
  reply: FastifyReply;
  entry: ModelEntry;
  signal: AbortSignal;
  base: ResponseBase;
}

/**
 * Runs `write` with the response's id and a signal for the client leaving; failures before the
 * stream opened become JSON errors, later ones an error event in the stream.
 */
export async function answerWith(
  ctx: Pick<AnswerContext, "deps" | "request" | "reply" | "entry">,
  idPrefix: string,
  write: (answer: AnswerContext) => Promise<void>,
): Promise<void> {
  const { request, reply, entry } = ctx;
  const base: ResponseBase = {
    id: `${idPrefix}-${randomUUID()}`,
    created: Math.floor(Date.now() / 1000),
    model: entry.id,
    system_fingerprint: "wisp",
  };
  const signal = disconnectSignal(reply);
  try {
    await write({ ...ctx, signal, base });
  } catch (error) {
    // What was generated before the failure is counted before the error answers. A client gone
    // before its answer began (it left the queue) is recorded here too (499): no hook runs for
    // the abandoned reply, and a drain would wait for its record.
    const used = partialUsageOf(error);
    const status = signal.aborted ? 499 : reply.raw.headersSent ? reply.raw.statusCode : toApiError(error).status;
    if (used || signal.aborted) await reportUsage({ ...ctx, signal }, used ?? NOTHING_USED, status);
    if (signal.aborted) return abandon(reply);
    if (!reply.raw.headersSent) throw error;
    // Mid-stream failures can only be reported in the stream itself.
    request.log.error({ err: error }, "stream failed");
    reply.raw.end(encodeSseEvent(JSON.stringify(errorBody(toApiError(error)))));
  }
}

export async function answerText(
  deps: ServerDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  entry: ModelEntry,
  job: JobRequest,
  stream: { enabled: boolean; includeUsage: boolean },
  format: TextResponseFormat,
): Promise<void> {
  await answerWith({ deps, request, reply, entry }, format.idPrefix, (ctx) =>
    (stream.enabled ? streamText : completeText)({ ...ctx, job, includeUsage: stream.includeUsage, format }),
  );
}

/** A plain text answer being written. */
interface Answer extends AnswerContext {
  job: JobRequest;
  includeUsage: boolean;
  format: TextResponseFormat;
}

/**
 * Counts the tokens against the request's key (also when the client left before the end); the
 * record is kept before the answer's end goes out.
 */
async function reportUsage({ deps, request, entry, signal }: Pick<AnswerContext, "deps" | "request" | "entry" | "signal">, result: PartialUsage, status = 200): Promise<void> {
  const recorded = deps.usage.served(request, { model: entry.id, promptTokens: result.promptTokens, completionTokens: result.completionTokens }, status);
  if (signal.aborted) {
    request.log.info({ completionTokens: result.completionTokens, tokensAfterAbort: result.tokensAfterAbort }, "client left before the end: generation stopped");
  }
  await recorded;
}

/**
 * Awaits a streamed generation: text batched before a failure goes out ahead of the error event
 * (answerWith writes it), the tokens are counted, and a stream nobody reads any more is ended
 * (undefined then).
 */
export async function settleStream<Result extends Omit<GenerationResult, "choices">>(ctx: AnswerContext, sse: SseWriter, generation: Promise<Result>): Promise<Result | undefined> {
  const result = await generation.catch((error: unknown) => {
    sse.flush();
    throw error;
  });
  await reportUsage(ctx, result);
  if (!ctx.signal.aborted) return result;
  sse.flush();
  abandon(ctx.reply);
  return undefined;
}

/**
 * Awaits a generation answered in one body: the tokens are counted, an answer nobody waits for any
 * more is abandoned (undefined then), and otherwise the prompt headers are set for the body to come.
 */
export async function settleComplete<Result extends Omit<GenerationResult, "choices">>(ctx: AnswerContext, generation: Promise<Result>): Promise<Result | undefined> {
  const result = await generation;
  await reportUsage(ctx, result);
  if (ctx.signal.aborted) {
    abandon(ctx.reply);
    return undefined;
  }
  ctx.reply.headers(promptHeaders(result.prompt));
  return result;
}

/** Takes the response over for an event stream, once the prompt is accepted. */
export function openEventStream(reply: FastifyReply, stats: PromptStats): void {
  // Headers go out only once the prompt is accepted, so prompt errors still get a JSON 400.
  reply.hijack();
  reply.raw.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive", ...promptHeaders(stats) });
}

async function completeText(answer: Answer): Promise<void> {
  const { deps, reply, entry, job, signal, base, format } = answer;
  const result = await settleComplete(answer, deps.textEngine.generateEach(entry.id, entry.path, { ...job, signal }, job.prompts, job.heals, job.files));
  if (!result) return;
  await reply.send(format.complete(base, result.choices, usageOf(result)));
}

async function streamText(answer: Answer): Promise<void> {
  const { deps, reply, entry, job, signal, includeUsage, format } = answer;
  const base = chunkBase(answer.base, includeUsage && format.nullUsageInChunks);
  const raw = reply.raw;
  const sse = new SseWriter(raw);
  const send = (data: object | string) => sse.send(data);
  const generation = deps.textEngine.generateEach(entry.id, entry.path, {
    ...job,
    signal,
    onPromptReady: (stats) => {
      openEventStream(reply, stats);
      if (format.opensStream) for (let i = 0; i < job.n * job.prompts.length; i++) send(format.chunk(base, i, undefined, undefined, null));
    },
    onText: (index, text, logprobs) => {
      markFirstToken(answer.request);
      send(format.chunk(base, index, text, job.topLogprobs === undefined ? undefined : logprobs, null));
    },
  }, job.prompts, job.heals, job.files);
  const result = await settleStream(answer, sse, generation);
  if (!result) return;
  result.choices.forEach((c, i) => send(format.chunk(base, i, "", undefined, c.finishReason)));
  if (includeUsage) send(format.usageChunk(base, usageOf(result)));
  sse.end();
}

/** With stream_options.include_usage, every chunk but the last carries `usage: null`, as OpenAI's do. */
export function chunkBase<T extends object>(base: T, includeUsage: boolean): T {
  return includeUsage ? { ...base, usage: null } : base;
}
