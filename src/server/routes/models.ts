// GET /v1/models: every model the registry found (text and image), text models with their context
// window and whether the server fills in the middle with the model's own tokens (`fim`), then the
// upstreams' models. GET /v1/models/{id}: one of them (the SDK's models.retrieve()).
import type { RoutePlugin, ServerDeps } from "../deps";
import { modelNotFound } from "../errors";
import { GgufFactsReader } from "../models/gguf-facts";

const modelSchema = {
  type: "object",
  properties: { id: { type: "string" }, object: { type: "string" }, created: { type: "integer" }, owned_by: { type: "string" }, kind: { type: "string" }, context_length: { type: "integer" }, fim: { type: "boolean" } },
} as const;

const responseSchema = {
  200: { type: "object", properties: { object: { type: "string" }, data: { type: "array", items: modelSchema } } },
} as const;

// A wildcard, not :id: upstream ids may hold slashes ("org/name"), which clients send unescaped.
const retrieveSchema = {
  params: { type: "object", properties: { "*": { type: "string" } }, required: ["*"] },
  response: { 200: modelSchema },
} as const;

/** GET /models (under /v1). */
export const modelRoutes: RoutePlugin = async (app, { deps }) => {
  // Text models say their context window, so clients can fit a conversation into it.
  const facts = new GgufFactsReader(deps.config.contextSize);
  app.get("/models", { schema: { response: responseSchema } }, async () => ({ object: "list", data: await listModels(deps, facts) }));
  app.get("/models/*", { schema: retrieveSchema }, async (request) => {
    const id = (request.params as { "*": string })["*"];
    const model = (await listModels(deps, facts)).find((m) => m.id === id);
    if (!model) throw modelNotFound(id);
    return model;
  });
};

async function listModels(deps: ServerDeps, facts: GgufFactsReader) {
  const local = await Promise.all(
    (await deps.registry.scan()).map(async (m) => ({
      id: m.id,
      object: "model",
      created: m.created,
      owned_by: "wisp",
      kind: m.kind,
      ...(m.kind === "text" ? await textFacts(facts, m.path) : {}),
    })),
  );
  const upstream = deps.upstreams.list().map((m) => ({ object: "model", created: 0, ...m }));
  return [...local, ...upstream];
}

async function textFacts(reader: GgufFactsReader, path: string): Promise<{ context_length: number; fim: boolean }> {
  const { contextLength, fim } = await reader.read(path);
  return { context_length: contextLength, fim };
}
