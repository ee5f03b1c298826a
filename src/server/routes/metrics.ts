// GET /metrics: counters that show prompt reuse, sequence use and the image queue (no secrets, so no auth).
import type { RoutePlugin } from "../deps";
import type { ImageEngineMetrics } from "../engines/image/image-engine";
import type { TextEngineMetrics } from "../engines/text/text-engine";

/** What GET /metrics answers. */
export type ServerMetrics = TextEngineMetrics & { images: ImageEngineMetrics };

/** GET /metrics and GET /health, at the root. */
export const metricsRoutes: RoutePlugin = async (app, { deps }) => {
  // Spread into a plain object: the schema's type is an open record, which an interface is not.
  app.get("/metrics", { schema: { response: { 200: { type: "object", additionalProperties: true } } } }, async () => ({ ...deps.textEngine.metrics(), images: deps.imageEngine.metrics() }) satisfies ServerMetrics);
  app.get("/health", { schema: { response: { 200: { type: "object", properties: { status: { type: "string" } } } } } }, async () => ({ status: "ok" }));
};
