// What operators' tools read, without a key (nothing secret in them): GET /metrics (Prometheus'
// text format), GET /metrics.json (the engines' own counters: prompt reuse, sequences, the image
// queue), GET /health (the process answers, and its version) and GET /ready (it can serve: its store answers, a
// model or upstream is usable, and it is not draining).
import type { RoutePlugin, ServerDeps } from "../deps";
import type { ImageEngineMetrics } from "../engines/image/image-engine";
import type { TextEngineMetrics } from "../engines/text/text-engine";

/** What GET /metrics.json answers. */
export type ServerMetrics = TextEngineMetrics & { images: ImageEngineMetrics };

const statusSchema = { type: "object", properties: { status: { type: "string" }, reasons: { type: "array", items: { type: "string" } }, launch: { type: "string" }, version: { type: "string" } } } as const;

/** Why the server should not be sent requests now (empty: ready). */
export function notReadyReasons(deps: ServerDeps): string[] {
  const reasons: string[] = [];
  if (deps.lifecycle.draining) reasons.push("draining: shutting down");
  const store = deps.store.status();
  if (!store.ok) reasons.push(store.reason ?? "the store is unavailable");
  if (deps.registry.list().length === 0 && !deps.upstreams.status().some((u) => u.healthy)) reasons.push("no local model and no healthy upstream");
  return reasons;
}

/** GET /metrics, /metrics.json, /health and /ready, at the root. */
export const metricsRoutes: RoutePlugin = async (app, { deps }) => {
  app.get("/metrics", async (_request, reply) => reply.type(deps.metrics.contentType).send(await deps.metrics.text()));
  // Spread into a plain object: the schema's type is an open record, which an interface is not.
  app.get("/metrics.json", { schema: { response: { 200: { type: "object", additionalProperties: true } } } }, async () => ({ ...deps.textEngine.metrics(), images: deps.imageEngine.metrics() }) satisfies ServerMetrics);
  const launch = deps.config.launchId;
  app.get("/health", { schema: { response: { 200: statusSchema } } }, async () => ({ status: "ok", version: deps.version, ...(launch === undefined ? {} : { launch }) }));
  app.get("/ready", { schema: { response: { 200: statusSchema, 503: statusSchema } } }, async (_request, reply) => {
    const reasons = notReadyReasons(deps);
    return reasons.length === 0 ? { status: "ready" } : reply.code(503).send({ status: "not ready", reasons });
  });
};
