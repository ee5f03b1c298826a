// GET /metrics: counters that show prompt reuse and sequence use (no secrets, so no auth).
import type { RoutePlugin } from "../deps";

export const registerMetricsRoutes: RoutePlugin = (app, deps) => {
  app.get("/metrics", { schema: { response: { 200: { type: "object", additionalProperties: true } } } }, async () => deps.textEngine.metrics());
  app.get("/health", { schema: { response: { 200: { type: "object", properties: { status: { type: "string" } } } } } }, async () => ({ status: "ok" }));
};
