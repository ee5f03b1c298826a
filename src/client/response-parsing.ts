import type { ModelInfo, ToolCallDelta, Usage } from "../core/api/types";
import { imageKindOf } from "../core/image/image-kind";
import { MalformedResponseError } from "./error-mapping";

export interface CompletionDelta {
  text: string;
  finishReason?: string;
}

export interface ChatDelta {
  content: string;
  finishReason?: string;
  /** Token counts, from the last chunk when the request asked for stream_options.include_usage. */
  usage?: Usage;
  /** Pieces of tool calls (agent mode): reassembled by index. */
  toolCalls?: ToolCallDelta[];
  /** Thinking a server sends apart from the answer (vLLM's and llama.cpp's reasoning_content, Ollama's and OpenRouter's reasoning). */
  reasoning?: string;
}

export interface GeneratedImages {
  images: Uint8Array[];
  /** The seed each image was made with, where the server says (undefined where it does not). */
  seeds: (number | undefined)[];
  /** The first image's seed, where known. */
  seed?: number;
}

type Json = Record<string, unknown>;

export function parseModelList(body: unknown): ModelInfo[] {
  let data = asRecord(body, "the model list is not a JSON object").data;
  // Ollama's /v1/models with no model pulled yet: {"object": "list", "data": null}.
  if (data === null) data = [];
  if (!Array.isArray(data)) throw new MalformedResponseError('the model list has no "data" array');
  return data.map((item) => {
    const model = asRecord(item, "a model entry is not an object");
    if (typeof model.id !== "string" || model.id === "") {
      throw new MalformedResponseError('a model entry has no "id"');
    }
    const contextLength = contextLengthOf(model);
    return {
      id: model.id,
      object: "model",
      created: typeof model.created === "number" ? model.created : 0,
      owned_by: typeof model.owned_by === "string" ? model.owned_by : "",
      ...(typeof model.kind === "string" ? { kind: model.kind } : {}),
      ...(contextLength === undefined ? {} : { context_length: contextLength }),
      ...(typeof model.fim === "boolean" ? { fim: model.fim } : {}),
      ...(Array.isArray(model.supported_parameters) ? { tools: model.supported_parameters.includes("tools") } : {}),
    };
  });
}

/** The first choice of a `text_completion` chunk; undefined for chunks that carry nothing (usage only, empty). */
export function parseCompletionChunk(chunk: unknown): CompletionDelta | undefined {
  const choice = firstChoice(chunk);
  if (choice === undefined) return undefined;
  const text = optionalString(choice.text, '"text"');
  return withFinish({ text }, text, choice);
}

/** The first choice of a `chat.completion.chunk` (or of a whole `chat.completion`, from servers that ignore `stream`). */
export function parseChatChunk(chunk: unknown): ChatDelta | undefined {
  const usage = usageOf(asRecord(chunk, "a stream event is not a JSON object").usage);
  const choice = firstChoice(chunk);
  let delta: ChatDelta | undefined;
  if (choice !== undefined) {
    const holder = choice.delta ?? choice.message;
    const record = holder === undefined ? undefined : asRecord(holder, "a choice has a bad delta");
    const content = record === undefined ? "" : contentText(record.content);
    const toolCalls = record === undefined ? [] : toolCallDeltas(record.tool_calls);
    delta = toolCalls.length > 0 ? { content, toolCalls, ...finishOf(choice) } : withFinish({ content }, content, choice);
    const reasoning = record === undefined ? "" : reasoningText(record);
    if (reasoning !== "") delta = { ...(delta ?? { content }), reasoning };
  }
  return usage === undefined ? delta : { ...(delta ?? { content: "" }), usage };
}

/**
 * Tool-call pieces of a delta (or the whole calls of a non-streamed message, which have no
 * index: their position is used).
 */
function toolCallDeltas(value: unknown): ToolCallDelta[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new MalformedResponseError('a choice\'s "tool_calls" is not an array');
  return value.map((item, position) => {
    const call = asRecord(item, "a tool call is not an object");
    const fn = call.function === undefined ? undefined : asRecord(call.function, "a tool call's function is not an object");
    const index = typeof call.index === "number" && Number.isSafeInteger(call.index) ? call.index : position;
    const name = fn === undefined ? "" : optionalString(fn.name, "tool call name");
    const args = fn === undefined ? undefined : fn.arguments;
    const argumentsText = typeof args === "string" ? args : args === undefined || args === null ? "" : JSON.stringify(args);
    return {
      index,
      ...(typeof call.id === "string" && call.id !== "" ? { id: call.id } : {}),
      function: { ...(name === "" ? {} : { name }), arguments: argumentsText },
    };
  });
}

/**
 * A message's content: a string, or (Mistral's reasoning models) a list of parts, whose text parts
 * are the answer and whose thinking parts are left out, as reasoning_content is.
 */
function contentText(value: unknown): string {
  if (!Array.isArray(value)) return optionalString(value, '"content"');
  return value
    .map((part) => {
      const record = asRecord(part, "a content part is not an object");
      return record.type === "text" ? optionalString(record.text, "content part's text") : "";
    })
    .join("");
}

function finishOf(choice: Json): { finishReason?: string } {
  return typeof choice.finish_reason === "string" ? { finishReason: choice.finish_reason } : {};
}

/** Token counts when they are all there (vLLM sends `usage: null` in every chunk but the last). */
function usageOf(value: unknown): Usage | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { prompt_tokens, completion_tokens, total_tokens } = value as Record<string, unknown>;
  if (typeof prompt_tokens !== "number" || typeof completion_tokens !== "number") return undefined;
  return { prompt_tokens, completion_tokens, total_tokens: typeof total_tokens === "number" ? total_tokens : prompt_tokens + completion_tokens };
}

/**
 * The model's context window where the server lists it: `context_length` (Wisp's local server and
 * several hosted APIs), `max_model_len` (vLLM), `meta.n_ctx_train` (llama.cpp's server).
 */
function contextLengthOf(model: Json): number | undefined {
  const meta = typeof model.meta === "object" && model.meta !== null ? (model.meta as Json) : {};
  for (const value of [model.context_length, model.max_model_len, meta.n_ctx_train]) {
    if (typeof value === "number" && Number.isInteger(value) && value > 0) return value;
  }
  return undefined;
}

/**
 * The images of an `images/generations` answer and their seeds: each entry's own `seed`, else the
 * response's `seed` (or Wisp's `x-wisp-seed` header, `headerSeed`) plus the image's index, the
 * convention of servers that make image i with seed + i.
 */
export function parseImages(body: unknown, decodeBase64: (b64: string) => Uint8Array, headerSeed?: number): GeneratedImages {
  const record = asRecord(body, "the image response is not a JSON object");
  if (!Array.isArray(record.data) || record.data.length === 0) {
    throw new MalformedResponseError('the image response has no "data" images');
  }
  const baseSeed = isSeed(record.seed) ? record.seed : headerSeed;
  const seeds: (number | undefined)[] = [];
  const images = record.data.map((item, index) => {
    const entry = asRecord(item, "an image entry is not an object");
    const b64 = entry.b64_json;
    if (typeof b64 !== "string" || !isBase64(b64)) {
      throw new MalformedResponseError('an image has no valid "b64_json" (Wisp asks for response_format b64_json)');
    }
    const bytes = decodeBase64(b64);
    if (imageKindOf(bytes) === undefined) throw new MalformedResponseError("an image's b64_json is no PNG, JPEG or WebP file (the answer was damaged or cut)");
    seeds.push(isSeed(entry.seed) ? entry.seed : baseSeed === undefined ? undefined : baseSeed + index);
    return bytes;
  });
  const first = seeds[0];
  return first === undefined ? { images, seeds } : { images, seeds, seed: first };
}

/** A seed as servers report it: a whole number, not negative (-1 means "random" in requests only). */
export function isSeed(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

function firstChoice(chunk: unknown): Json | undefined {
  const choices = asRecord(chunk, "a stream event is not a JSON object").choices;
  if (!Array.isArray(choices)) throw new MalformedResponseError('a stream event has no "choices" array');
  // Wisp shows one choice; with n > 1 the others are ignored.
  const first = choices.find((c) => (asRecord(c, "a choice is not an object").index ?? 0) === 0);
  return first as Json | undefined;
}

/** Adds the finish reason; undefined when the chunk carries neither text nor a finish (e.g. the role-only first chunk). */
function withFinish<T extends object>(delta: T, text: string, choice: Json): (T & { finishReason?: string }) | undefined {
  if (typeof choice.finish_reason === "string") return { ...delta, finishReason: choice.finish_reason };
  return text === "" ? undefined : delta;
}

/** The thinking in a delta; a field that is not text is ignored (it is never the answer). */
function reasoningText(record: Json): string {
  const value = record.reasoning_content ?? record.reasoning;
  return typeof value === "string" ? value : "";
}

function optionalString(value: unknown, name: string): string {
  if (value === undefined || value === null) return "";
  if (typeof value !== "string") throw new MalformedResponseError(`a choice's ${name} is not a string`);
  return value;
}

function asRecord(value: unknown, problem: string): Json {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new MalformedResponseError(problem);
  return value as Json;
}

function isBase64(text: string): boolean {
  return text.length > 0 && /^[A-Za-z0-9+/\r\n]+={0,2}$/.test(text);
}
