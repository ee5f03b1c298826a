// Builds the HTTP app (never listens: main.ts does, tests listen on an ephemeral port).
import { randomUUID } from "node:crypto";
import { availableParallelism } from "node:os";
import Fastify, { type FastifyInstance } from "fastify";
import { authenticator } from "./auth/authenticate";
import type { Lifecycle, RoutePlugin, ServerConfig, ServerDeps } from "./deps";
import { ImageEngine } from "./engines/image/image-engine";
import { TextEngine } from "./engines/text/text-engine";
import { defaultPromptThreads } from "./engines/text/prompt-threads";
import { ApiError, handleError, sendError, StoreUnavailableError } from "./errors";
import { HostCheck } from "./host-check";
import { addJsonBodyParser } from "./json-body-parser";
import { RouteMethods } from "./route-methods";
import { unsupportedEndpointMessage } from "./unsupported-endpoints";
import { apiUrl, missingPrefixMessage } from "./api-url";
import { decodedBody } from "./body-encoding";
import { ensureDefaultModels } from "./engines/default-models";
import { ServerMetrics } from "./metrics/server-metrics";
import { ModelRegistry } from "./models/registry";
import { chatCompletionRoutes } from "./routes/chat-completions";
import { completionRoutes } from "./routes/completions";
import { imageRoutes } from "./routes/images";
import { metricsRoutes } from "./routes/metrics";
import { modelRoutes } from "./routes/models";
import { loadConsoleAssets, type ConsoleAsset } from "./console/console-assets";
import { consoleRoutes } from "./console/console-routes";
import { redactUrl } from "./console/console-security";
import { DEFAULT_SESSION_LIMITS } from "./store/console-sessions";
import { openStore } from "./store/open-store";
import type { Store } from "./store/store";
import type { UpstreamTiming } from "./upstreams/upstream";
import { serverVersion } from "./server-version";
import { UpstreamRegistry } from "./upstreams/upstream-registry";
import { rateLimitHook } from "./usage/rate-limiter";
import { UsageRecorder } from "./usage/usage-recorder";

export const DEFAULT_CONFIG: Omit<ServerConfig, "modelsDir" | "dataDir"> = {
  host: "127.0.0.1",
  port: 8765,
  allowedHosts: [],
  // One thread: on the 2-core machines measured, 2 threads made each decode step ~10x slower.
  threads: 1,
  threadsBatch: defaultPromptThreads(availableParallelism()),
  parallel: 2,
  contextSize: 4096,
  maxQueue: 64,
  prefixReuse: true,
  inputLookup: 0,
  nativeStep: true,
  lineCandidates: true,
  ownLine: true,
  bodyLimit: 4 * 1024 * 1024,
  requestTimeoutMs: 30_000,
  upstreams: [],
  localModels: true,
  rateLimit: { requestsPerMinute: 0, tokensPerMinute: 0 },
  databasePoolSize: 10,
  keyCacheGraceMs: 60_000,
  keyCacheMaxAgeMs: 60_000,
  keyListenerHeartbeatMs: 5_000,
  usageQueueMax: 100_000,
  loginCodeMs: DEFAULT_SESSION_LIMITS.loginCodeMs,
  // Without a database a stop is at once, as it always was; a replica on one drains (cli-args).
  drainDelayMs: 0,
  drainGraceMs: 0,
};

export interface BuildAppOptions extends Partial<ServerConfig> {
  modelsDir: string;
  dataDir: string;
  /** Where status lines go (main prints them); silent by default. */
  log?: (message: string) => void;
  /** fastify's logger (request logs); off by default. Bodies and auth headers are never logged. */
  logger?: boolean;
  /** One `log` line per finished request: method, path, status, time (never bodies or headers). */
  accessLog?: boolean;
  /** The web console's files (default: the built ones in dist/server/console). */
  consoleAssets?: Map<string, ConsoleAsset>;
  /** Where upstreams' key-env variables are read (default: process.env). */
  env?: Record<string, string | undefined>;
  /** How often upstreams are checked, and the backoff after failures. */
  upstreamTiming?: UpstreamTiming;
  /** Also the process's own metrics (CPU, memory, event loop) in GET /metrics: main's server. */
  processMetrics?: boolean;
}

export interface BuiltApp {
  app: FastifyInstance;
  deps: ServerDeps;
  /**
   * The console's admin token, for the login URL main prints (never logged otherwise); undefined
   * when this replica cannot know it (a database keeps only its hash).
   */
  adminToken: string | undefined;
}

/** Route groups behind API-key auth, under /v1. */
const apiRoutes: RoutePlugin[] = [modelRoutes, completionRoutes, chatCompletionRoutes, imageRoutes];

export async function buildApp(options: BuildAppOptions): Promise<BuiltApp> {
  const { log = () => undefined, logger = false, accessLog = false, consoleAssets, env = process.env, upstreamTiming, processMetrics = false, ...overrides } = options;
  const config: ServerConfig = { ...DEFAULT_CONFIG, ...overrides };
  const version = serverVersion();
  const metrics = new ServerMetrics({ processMetrics, version });
  // First: a database that cannot be used stops the server before anything else is made.
  const store = await openStore({ ...config, log, metrics });
  try {
    return await buildOnStore(config, store, metrics, { log, logger, accessLog, consoleAssets, env, upstreamTiming, version });
  } catch (error) {
    await store.close();
    throw error;
  }
}

async function buildOnStore(
  config: ServerConfig,
  store: Store,
  metrics: ServerMetrics,
  options: Required<Pick<BuildAppOptions, "log" | "logger" | "accessLog" | "env">> & Pick<BuildAppOptions, "consoleAssets" | "upstreamTiming"> & { version: string },
): Promise<BuiltApp> {
  const { log, logger, accessLog, consoleAssets, env, upstreamTiming, version } = options;
  if (config.localModels) await ensureDefaultModels(config.modelsDir, log);
  const registry = new ModelRegistry(config.modelsDir, config.localModels);
  await registry.scan();
  const upstreams = new UpstreamRegistry(config.upstreams, env, (id) => registry.get(id) !== undefined, upstreamTiming);
  await upstreams.start();
  const textEngine = new TextEngine(config);
  const imageEngine = new ImageEngine({ threads: config.threads, maxQueue: config.maxQueue });
  const limits = store.limits;
  const usage = new UsageRecorder(store.usage, {
    onTokens: (key, tokens) => limits.spent(key, tokens),
    onServed: (request, served) => {
      request.wispModel = served.model;
      metrics.served(served.model, request.wispUpstream, served.promptTokens ?? 0, served.completionTokens ?? 0);
    },
  });
  const lifecycle: Lifecycle = { draining: false, inFlight: 0 };
  const deps: ServerDeps = { config, registry, store, keys: store.keys, authenticate: authenticator([store.keys, store.sessions]), textEngine, imageEngine, upstreams, usage, metrics, lifecycle, version, log };
  metrics.setSources({
    inFlight: () => lifecycle.inFlight,
    queues: () => ({ text: textEngine.metrics().sequences.waiting, images: imageEngine.metrics().waiting }),
    upstreams: () => upstreams.status(),
    database: () => store.gauges?.(),
  });

  const app = Fastify({
    logger,
    bodyLimit: config.bodyLimit,
    requestTimeout: config.requestTimeoutMs,
    // Headers get no longer than the whole request; expiry is checked every second, not every 30 s.
    http: { headersTimeout: Math.min(config.requestTimeoutMs, 10_000), connectionsCheckingInterval: 1_000 },
    // Stopping the server ends open streams at once (their generations stop as on a disconnect).
    forceCloseConnections: true,
    // Strict types: "10" is not a number here, and wrong types get a 400 naming the field.
    ajv: { customOptions: { coerceTypes: false, allErrors: false, removeAdditional: false } },
    // Each request's id is unique across replicas (its usage record is stored under it, once);
    // a client's own x-request-id is not trusted for that.
    genReqId: () => randomUUID(),
    rewriteUrl: (request) => apiUrl(request.url ?? "/"),
    requestIdHeader: false,
  });
  // JSON sent as text/plain (fetch's type for a string body) is refused as any other type is (415,
  // "send JSON"), not read as a string and refused as "body must be object".
  app.removeContentTypeParser("text/plain");
  addJsonBodyParser(app);
  app.addHook("preParsing", async (request, _reply, payload) => decodedBody(request.raw, payload));
  app.setErrorHandler((error, request, reply) => handleError(error, request, reply, (reason) => log(`${request.method} ${redactUrl(request.url)} failed: ${reason}`)));
  const routeMethods = new RouteMethods();
  app.addHook("onRoute", routeMethods.record);
  app.setNotFoundHandler((request, reply) => {
    const allowed = routeMethods.allowed(request.url);
    if (allowed.length === 0) {
      const path = request.url.split("?")[0]!;
      const message =
        unsupportedEndpointMessage(request.method, path) ?? missingPrefixMessage(request.method, path, (p) => routeMethods.allowed(p)) ?? `no route ${request.method} ${request.url}`;
      return sendError(reply, new ApiError(404, message, "invalid_request_error", null, "unknown_route"));
    }
    reply.header("allow", allowed.join(", "));
    return sendError(reply, new ApiError(405, `${request.method} is not allowed on ${request.url.split("?")[0]}: use ${allowed.join(" or ")}`, "invalid_request_error", null, "method_not_allowed"));
  });
  app.addHook("onClose", () => textEngine.dispose());
  app.addHook("onClose", () => imageEngine.dispose());
  app.addHook("onClose", () => upstreams.dispose());
  app.addHook("onClose", () => store.close());
  app.decorateRequest("wispKey", null);
  app.decorateRequest("wispUsageReported", false);
  app.decorateRequest("wispModel", null);
  app.decorateRequest("wispUpstream", null);
  app.decorateRequest("wispFirstTokenAt", null);
  // Requests in flight (streams taken over by a route too) and their metrics, as each one ends.
  app.addHook("onRequest", async (request, reply) => {
    lifecycle.inFlight++;
    reply.raw.once("close", () => {
      lifecycle.inFlight--;
      usage.closed(request);
      // Closed before any answer went out: its client left (499, as its usage record says), whatever status was set.
      metrics.requestEnded(request, reply.raw.headersSent ? reply.raw.statusCode : 499, reply.elapsedTime);
    });
  });
  app.addHook("onRequest", async (request, reply) => {
    // Every answer, a 404 or 405 of a path the server lacks too. Set on the raw response, so streams
    // that write their own headers carry it. x-request-id is OpenAI's name: the openai SDK shows it
    // as `request_id` (on errors too).
    reply.raw.setHeader("x-wisp-request-id", request.id);
    reply.raw.setHeader("x-request-id", request.id);
  });
  // Before any route, keyed or not (after the ones above, so that refusals are counted too).
  const hosts = new HostCheck(config, log);
  app.addHook("onRequest", hosts.hook);
  if (accessLog) {
    app.addHook("onResponse", async (request, reply) => {
      // A rebinding page may send them by the thousand: its check logs each name once instead.
      if (hosts.refuses(request)) return;
      const evaluated = reply.getHeader("x-wisp-prompt-tokens-evaluated");
      const cached = reply.getHeader("x-wisp-prompt-tokens-cached");
      const prompt = evaluated === undefined ? "" : ` prompt ${String(evaluated)} evaluated, ${String(cached ?? 0)} cached`;
      log(`${request.method} ${redactUrl(request.url)} ${reply.statusCode} ${reply.elapsedTime.toFixed(0)} ms${prompt}`);
    });
  }

  await app.register(async (api) => {
    api.addHook("onRequest", deps.authenticate);
    api.addHook("onRequest", usage.begin);
    api.addHook("onRequest", async (request) => {
      if (request.method === "POST" && store.usage.full()) {
        throw new StoreUnavailableError(`this replica holds ${store.usage.pending()} usage records the database has not taken yet (it is unavailable): retry in a moment`);
      }
    });
    api.addHook("onRequest", rateLimitHook(limits, () => metrics.rateLimited()));
    api.addHook("preValidation", usage.route);
    api.addHook("onSend", usage.hook);
    api.addHook("onResponse", usage.lateHook);
    for (const routes of apiRoutes) await api.register(routes, { prefix: "/v1", deps });
  });
  await app.register(metricsRoutes, { deps });
  await app.register(consoleRoutes, { deps, assets: consoleAssets ?? loadConsoleAssets() });
  return { app, deps, adminToken: store.adminToken };
}
