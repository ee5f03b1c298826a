// Builds the HTTP app (never listens: main.ts does, tests listen on an ephemeral port).
import { availableParallelism } from "node:os";
import Fastify, { type FastifyInstance } from "fastify";
import { authenticator } from "./auth/authenticate";
import { KeyStore } from "./auth/key-store";
import type { RoutePlugin, ServerConfig, ServerDeps } from "./deps";
import { ImageEngine } from "./engines/image/image-engine";
import { TextEngine } from "./engines/text/text-engine";
import { defaultPromptThreads } from "./engines/text/prompt-threads";
import { ApiError, handleError, sendError } from "./errors";
import { ensureDefaultModels } from "./engines/default-models";
import { ModelRegistry } from "./models/registry";
import { chatCompletionRoutes } from "./routes/chat-completions";
import { completionRoutes } from "./routes/completions";
import { imageRoutes } from "./routes/images";
import { metricsRoutes } from "./routes/metrics";
import { modelRoutes } from "./routes/models";
import { AdminToken } from "./console/admin-token";
import { loadConsoleAssets, type ConsoleAsset } from "./console/console-assets";
import { consoleRoutes } from "./console/console-routes";
import { redactUrl } from "./console/console-security";
import { SessionStore } from "./console/sessions";
import { UsageLog } from "./usage/usage-log";
import type { UpstreamTiming } from "./upstreams/upstream";
import { UpstreamRegistry } from "./upstreams/upstream-registry";
import { RateLimiter } from "./usage/rate-limiter";
import { UsageRecorder } from "./usage/usage-recorder";

export const DEFAULT_CONFIG: Omit<ServerConfig, "modelsDir" | "dataDir"> = {
  host: "127.0.0.1",
  port: 8765,
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
  bodyLimit: 4 * 1024 * 1024,
  requestTimeoutMs: 30_000,
  upstreams: [],
  localModels: true,
  rateLimit: { requestsPerMinute: 0, tokensPerMinute: 0 },
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
}

export interface BuiltApp {
  app: FastifyInstance;
  deps: ServerDeps;
  /** The console's admin token, for the login URL main prints (never logged otherwise). */
  adminToken: string;
}

/** Route groups behind API-key auth, under /v1. */
const apiRoutes: RoutePlugin[] = [modelRoutes, completionRoutes, chatCompletionRoutes, imageRoutes];

export async function buildApp(options: BuildAppOptions): Promise<BuiltApp> {
  const { log = () => undefined, logger = false, accessLog = false, consoleAssets, env = process.env, upstreamTiming, ...overrides } = options;
  const config: ServerConfig = { ...DEFAULT_CONFIG, ...overrides };
  if (config.localModels) await ensureDefaultModels(config.modelsDir, log);
  const registry = new ModelRegistry(config.modelsDir, config.localModels);
  await registry.scan();
  const upstreams = new UpstreamRegistry(config.upstreams, env, (id) => registry.get(id) !== undefined, upstreamTiming);
  await upstreams.start();
  const keys = new KeyStore(config.dataDir);
  const textEngine = new TextEngine(config);
  const imageEngine = new ImageEngine({ threads: config.threads, maxQueue: config.maxQueue });
  const usageLog = await UsageLog.open(config.dataDir, { log });
  const sessions = new SessionStore();
  const { admin, token: adminToken } = await AdminToken.loadOrCreate(config.dataDir, log);
  const limiter = new RateLimiter(config.rateLimit);
  const usage = new UsageRecorder(usageLog, Date.now, (key, tokens) => limiter.spent(key, tokens));
  const deps: ServerDeps = { config, registry, keys, authenticate: authenticator(keys, sessions), textEngine, imageEngine, upstreams, usage, log };

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
  });
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request, reply) => sendError(reply, new ApiError(404, `no route ${request.method} ${request.url}`, "not_found_error", null, "unknown_route")));
  app.addHook("onClose", () => textEngine.dispose());
  app.addHook("onClose", () => imageEngine.dispose());
  app.addHook("onClose", () => upstreams.dispose());
  app.addHook("onClose", () => usageLog.close());
  app.decorateRequest("wispKey", null);
  app.decorateRequest("wispUsageReported", false);
  if (accessLog) {
    app.addHook("onResponse", async (request, reply) => {
      const evaluated = reply.getHeader("x-wisp-prompt-tokens-evaluated");
      const cached = reply.getHeader("x-wisp-prompt-tokens-cached");
      const prompt = evaluated === undefined ? "" : ` prompt ${String(evaluated)} evaluated, ${String(cached ?? 0)} cached`;
      log(`${request.method} ${redactUrl(request.url)} ${reply.statusCode} ${reply.elapsedTime.toFixed(0)} ms${prompt}`);
    });
  }

  await app.register(async (api) => {
    api.addHook("onRequest", deps.authenticate);
    api.addHook("onRequest", limiter.hook);
    api.addHook("onResponse", usage.hook);
    for (const routes of apiRoutes) await api.register(routes, { prefix: "/v1", deps });
  });
  await app.register(metricsRoutes, { deps });
  await app.register(consoleRoutes, { deps, admin, sessions, usage: usageLog, assets: consoleAssets ?? loadConsoleAssets() });
  return { app, deps, adminToken };
}
