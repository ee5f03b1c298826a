// Shared steps of the text routes: model lookup and OpenAI fields -> engine settings.
import type { LlamaModel, Token } from "node-llama-cpp";
import type { ServerDeps } from "../deps";
import type { SamplingSettings } from "../engines/text/types";
import { ApiError, modelNotFound } from "../errors";
import type { ModelEntry } from "../models/registry";
import { schemaProblem } from "./json-schema-check";
import type { SamplingBody } from "./schemas";

export async function resolveTextModel(deps: ServerDeps, id: string): Promise<{ entry: ModelEntry; model: LlamaModel }> {
  // Models dropped into the directory while the server runs are found on first use.
  const entry = deps.registry.get(id) ?? (await deps.registry.scan(), deps.registry.get(id));
  if (!entry) throw modelNotFound(id);
  if (entry.kind !== "text") throw new ApiError(400, `model '${id}' is an image model: use /v1/images/generations`, "invalid_request_error", "model", "wrong_model_kind");
  return { entry, model: await deps.textEngine.model(entry.id, entry.path) };
}

function logitBias(model: LlamaModel, bias: Record<string, number> | null | undefined): Map<Token, number> {
  const map = new Map<Token, number>();
  const vocabulary = model.fileInfo.metadata.tokenizer.ggml.tokens.length;
  for (const [key, value] of Object.entries(bias ?? {})) {
    const token = Number(key);
    if (token >= vocabulary) throw new ApiError(400, `logit_bias: token id ${key} is outside the vocabulary (0..${vocabulary - 1})`, "invalid_request_error", "logit_bias");
    map.set(token as Token, value);
  }
  return map;
}

/** The schema a client sent (guided_json may be its JSON text), checked to be a JSON schema. */
function checkedSchema(schema: object | string, param: string, where = param): object {
  const parsed = typeof schema === "string" ? parseJsonObject(schema) : schema;
  if (!parsed) throw new ApiError(400, `${where} must be a JSON schema object`, "invalid_request_error", param, "invalid_value");
  const problem = schemaProblem(parsed);
  if (problem) throw new ApiError(400, `${where} is not a valid JSON schema: ${problem}`, "invalid_request_error", param, "invalid_value");
  return parsed;
}

function parseJsonObject(text: string): object | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === "object" ? parsed : undefined;
  } catch {
    return undefined;
  }
}

async function grammarFor(deps: ServerDeps, entry: ModelEntry, body: SamplingBody) {
  if (body.guided_json != null) return deps.textEngine.jsonGrammar(entry.id, entry.path, { schema: checkedSchema(body.guided_json, "guided_json"), param: "guided_json" });
  const format = body.response_format;
  if (format?.type === "json_object") return deps.textEngine.jsonGrammar(entry.id, entry.path);
  if (format?.type === "json_schema") {
    const schema = format.json_schema?.schema;
    if (!schema) throw new ApiError(400, "response_format.json_schema.schema is required", "invalid_request_error", "response_format");
    return deps.textEngine.jsonGrammar(entry.id, entry.path, { schema: checkedSchema(schema, "response_format", "response_format.json_schema.schema"), param: "response_format" });
  }
  return undefined;
}

export async function samplingSettings(deps: ServerDeps, entry: ModelEntry, model: LlamaModel, body: SamplingBody): Promise<SamplingSettings> {
  return {
    temperature: body.temperature ?? 1,
    // OpenAI's defaults (no nucleus, no top-k), not node-llama-cpp's (0.95, 40); top_k -1 and 0
    // both mean "off", as in vLLM and llama.cpp.
    topP: body.top_p ?? 1,
    topK: body.top_k != null && body.top_k > 0 ? body.top_k : 0,
    seed: body.seed ?? undefined,
    presencePenalty: body.presence_penalty ?? 0,
    frequencyPenalty: body.frequency_penalty ?? 0,
    logitBias: logitBias(model, body.logit_bias),
    grammar: await grammarFor(deps, entry, body),
  };
}

/**
 * Whether to stream, and with usage. stream_options without stream: true is refused, as OpenAI
 * refuses it: a client that meant to stream and forgot must hear so, not get one JSON body.
 */
export function streamSettings(body: Pick<SamplingBody, "stream" | "stream_options">): { enabled: boolean; includeUsage: boolean } {
  const enabled = body.stream === true;
  if (body.stream_options != null && !enabled) {
    throw new ApiError(400, "The 'stream_options' parameter is only allowed when 'stream' is enabled.", "invalid_request_error", "stream_options", "invalid_value");
  }
  return { enabled, includeUsage: body.stream_options?.include_usage === true };
}

export function stopList(stop: string | string[] | null | undefined): string[] {
  if (stop == null) return [];
  return typeof stop === "string" ? [stop] : stop;
}
