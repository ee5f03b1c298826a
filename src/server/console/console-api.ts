// The console's JSON API (behind the session guard): the session's tokens, API keys, usage, models.
import type { FastifyPluginAsync, RawServerDefault } from "fastify";
import { isVisibleName, KEY_NAME_RULE } from "../../core/base/visible-name";
import { ApiError } from "../errors";
import type { JsonSchemaToTsProvider } from "../json-schema-to-ts-provider";
import type { ConsoleContext } from "./console-context";
import { PLAYGROUND_KEY } from "../store/console-sessions";

const DAY_MS = 24 * 3_600_000;
/** The Usage page shows up to 30 days: a little more is sent so local days are whole. */
const usageWindowMs = 31 * DAY_MS;

const createKeySchema = {
  body: {
    type: "object",
    required: ["name"],
    additionalProperties: false,
    properties: { name: { type: "string", minLength: 1, maxLength: 64 } },
  },
} as const;

/** The console's JSON API, under /console/api. */
export const consoleApiRoutes: FastifyPluginAsync<ConsoleContext, RawServerDefault, JsonSchemaToTsProvider> = async (app, ctx) => {
  const { keys, usage } = ctx.deps.store;

  app.get("/session", async (request) => {
    const session = request.consoleSession!;
    return { csrf_token: session.csrfToken, playground_key: session.playgroundKey, playground_key_id: PLAYGROUND_KEY.id };
  });

  app.get("/keys", async () => {
    const list = await keys.list();
    const lastUsed = await usage.lastUsed(list.map((k) => k.id));
    return { keys: list.map((k) => ({ ...k, last_used: seconds(lastUsed[k.id]) })).reverse() };
  });

  app.post("/keys", { schema: createKeySchema }, async (request, reply) => {
    const name = request.body.name.trim();
    // Names show in listings and terminals: nothing invisible, nothing that reorders the line.
    if (!isVisibleName(name)) throw new ApiError(400, `${KEY_NAME_RULE} (1-64 characters)`, "invalid_request_error", "name");
    const { key, secret } = await keys.create(name);
    ctx.deps.log(`console: created API key ${key.id} (${key.name})`);
    return reply.code(201).send({ key: { ...key, last_used: null }, secret });
  });

  app.post<{ Params: { id: string } }>("/keys/:id/revoke", async (request) => {
    const { id } = request.params;
    if (!(await keys.revoke(id))) throw new ApiError(404, `no API key ${id}`, "invalid_request_error", "id", "key_not_found");
    ctx.deps.log(`console: revoked API key ${id}`);
    const key = (await keys.list()).find((k) => k.id === id)!;
    return { key: { ...key, last_used: seconds((await usage.lastUsed([id]))[id]) } };
  });

  // Upstreams' addresses and state; their keys stay in the server's environment.
  app.get("/models", async () => ({
    local: (await ctx.deps.registry.scan()).map((m) => ({ id: m.id, kind: m.kind })),
    upstreams: ctx.deps.upstreams.status(),
  }));

  app.get("/usage", async () => {
    const now = Date.now();
    const names: Record<string, string> = { [PLAYGROUND_KEY.id]: PLAYGROUND_KEY.name };
    for (const k of await keys.list()) names[k.id] = k.name;
    return { now, buckets: await usage.buckets(now - usageWindowMs), key_names: names };
  });
};

const seconds = (t: number | undefined): number | null => (t === undefined ? null : Math.floor(t / 1000));
