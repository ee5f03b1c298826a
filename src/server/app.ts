// Builds the HTTP app (never listens: main.ts does, tests listen on an ephemeral port).
import Fastify, { type FastifyInstance } from "fastify";
import { authenticator } from "./auth/authenticate";
import { KeyStore } from "./auth/key-store";
import type { RoutePlugin, ServerConfig, ServerDeps } from "./deps";
import { TextEngine } from "./engines/text/text-engine";
import { ApiError, handleError, sendError } from "./errors";
import { ensureDefaultModels } from "./models/default-models";
import { ModelRegistry } from "./models/registry";
import { registerChatCompletionRoutes } from "./routes/chat-completions";
import { registerCompletionRoutes } from "./routes/completions";
import { registerImageRoutes } from "./routes/images";
import { registerMetricsRoutes } from "./routes/metrics";
import { registerModelRoutes } from "./routes/models";

export const DEFAULT_CONFIG: Omit<ServerConfig, "modelsDir" | "dataDir"> = {
  host: "127.0.0.1",
  port: 8765,
  // One thread: on the 2-core machines measured, 2 threads made each decode step ~10x slower.
  threads: 1,
  parallel: 2,
  contextSize: 4096,
  maxQueue: 64,
  prefixReuse: true,
  bodyLimit: 4 * 1024 * 1024,
  requestTimeoutMs: 30_000,
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
}

/** Route groups behind API-key auth. */
const apiRoutes: RoutePlugin[] = [registerModelRoutes, registerCompletionRoutes, registerChatCompletionRoutes, registerImageRoutes];

export async function buildApp(options: BuildAppOptions): Promise<{ app: FastifyInstance; deps: ServerDeps }> {
  const { log = () => undefined, logger = false, accessLog = false, ...overrides } = options;
  const config: ServerConfig = { ...DEFAULT_CONFIG, ...overrides };
  await ensureDefaultModels(config.modelsDir, log);
  const registry = new ModelRegistry(config.modelsDir);
  await registry.scan();
  const keys = new KeyStore(config.dataDir);
  const textEngine = new TextEngine(config);
  const deps: ServerDeps = { config, registry, keys, authenticate: authenticator(keys), textEngine, log };

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
  if (accessLog) {
    app.addHook("onResponse", async (request, reply) => {
      const evaluated = reply.getHeader("x-wisp-prompt-tokens-evaluated");
      const cached = reply.getHeader("x-wisp-prompt-tokens-cached");
      const prompt = evaluated === undefined ? "" : ` prompt ${String(evaluated)} evaluated, ${String(cached ?? 0)} cached`;
      // The path only: a query string can carry anything, keys included.
      log(`${request.method} ${request.url.split("?")[0]} ${reply.statusCode} ${reply.elapsedTime.toFixed(0)} ms${prompt}`);
    });
  }

  await app.register(async (api) => {
    api.addHook("onRequest", deps.authenticate);
    for (const register of apiRoutes) await register(api, deps);
  });
  await registerMetricsRoutes(app, deps);
  return { app, deps };
}
