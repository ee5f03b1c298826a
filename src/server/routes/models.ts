// GET /v1/models: every model the registry found (text and image).
import type { RoutePlugin } from "../deps";

const responseSchema = {
  200: {
    type: "object",
    properties: {
      object: { type: "string" },
      data: {
        type: "array",
        items: {
          type: "object",
          properties: { id: { type: "string" }, object: { type: "string" }, created: { type: "integer" }, owned_by: { type: "string" }, kind: { type: "string" } },
        },
      },
    },
  },
} as const;

export const registerModelRoutes: RoutePlugin = (app, deps) => {
  app.get("/v1/models", { schema: { response: responseSchema } }, async () => ({
    object: "list",
    data: (await deps.registry.scan()).map((m) => ({ id: m.id, object: "model", created: m.created, owned_by: "wisp", kind: m.kind })),
  }));
};
