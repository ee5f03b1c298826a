// GET /v1/models: every model the registry found (text and image), text models with their context
// window and whether the server fills in the middle with the model's own tokens (`fim`), then the
// upstreams' models.
import type { RoutePlugin } from "../deps";
import { GgufFactsReader } from "../models/gguf-facts";

const responseSchema = {
  200: {
    type: "object",
    properties: {
      object: { type: "string" },
      data: {
        type: "array",
        items: {
          type: "object",
          properties: { id: { type: "string" }, object: { type: "string" }, created: { type: "integer" }, owned_by: { type: "string" }, kind: { type: "string" }, context_length: { type: "integer" }, fim: { type: "boolean" } },
        },
      },
    },
  },
} as const;

/** GET /models (under /v1). */
export const modelRoutes: RoutePlugin = async (app, { deps }) => {
  // Text models say their context window, so clients can fit a conversation into it.
  const facts = new GgufFactsReader(deps.config.contextSize);
  app.get("/models", { schema: { response: responseSchema } }, async () => {
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
    return { object: "list", data: [...local, ...upstream] };
  });
};

async function textFacts(reader: GgufFactsReader, path: string): Promise<{ context_length: number; fim: boolean }> {
  const { contextLength, fim } = await reader.read(path);
  return { context_length: contextLength, fim };
}
