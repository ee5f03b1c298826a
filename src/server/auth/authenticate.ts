// Bearer-token check for /v1 routes; failures are 401s in the OpenAI error shape.
import type { FastifyRequest } from "fastify";
import { ApiError } from "../errors";
import type { KeyInfo } from "./key-records";
import { UnknownKeys } from "./unknown-keys";

/** Something that knows API keys: the key store, and the console's per-session playground keys. */
export interface KeyVerifier {
  /**
   * The active key matching `secret`, or undefined. Throws StoreUnavailableError when it cannot
   * tell (the database is down and the key is not one it checked recently).
   */
  verify(secret: string): Promise<KeyInfo | undefined>;
  /** Whether `secret` has the form of this verifier's keys (others are not looked up here). */
  claims?(secret: string): boolean;
}

export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  return match?.[1];
}

/** Headers other APIs take a key in, and whose they are. */
const otherKeyHeaders = { "api-key": "Azure OpenAI's", "x-api-key": "Anthropic's" } as const;

/**
 * Why a key sent in another API's header was not seen: the client is set up for that API. The
 * header's value (the key) is never repeated.
 */
function keyElsewhere(request: FastifyRequest): string {
  const name = (Object.keys(otherKeyHeaders) as (keyof typeof otherKeyHeaders)[]).find((h) => request.headers[h] !== undefined);
  if (name === undefined) return "";
  return ` (a key came in the ${name} header, ${otherKeyHeaders[name]}, which this server does not read: set the client to OpenAI's API, or to a custom header Authorization: Bearer <key>)`;
}

/**
 * Accepts a key any of `verifiers` knows, and notes it on the request (usage is counted per key).
 * A token none knows is refused again without asking them for a while (see unknown-keys.ts).
 */
export function authenticator(verifiers: readonly KeyVerifier[], unknown = new UnknownKeys()) {
  const refuse = () => new ApiError(401, "invalid or revoked API key", "authentication_error", null, "invalid_api_key");
  return async (request: FastifyRequest): Promise<void> => {
    const header = request.headers.authorization;
    if (!header) throw new ApiError(401, `missing API key: send Authorization: Bearer <key>${keyElsewhere(request)}`, "authentication_error", null, "missing_api_key");
    const token = bearerToken(header);
    if (!token) throw new ApiError(401, "malformed Authorization header: expected Bearer <key>", "authentication_error", null, "invalid_api_key");
    if (unknown.has(token)) throw refuse();
    for (const verifier of verifiers) {
      if (verifier.claims && !verifier.claims(token)) continue;
      const key = await verifier.verify(token);
      if (key) {
        request.wispKey = key;
        return;
      }
    }
    unknown.add(token);
    throw refuse();
  };
}
