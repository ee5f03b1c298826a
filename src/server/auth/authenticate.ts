// Bearer-token check for /v1 routes; failures are 401s in the OpenAI error shape.
import type { FastifyRequest } from "fastify";
import { ApiError } from "../errors";
import type { KeyStore } from "./key-store";

export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  return match?.[1];
}

export function authenticator(keys: KeyStore) {
  return async (request: FastifyRequest): Promise<void> => {
    const header = request.headers.authorization;
    if (!header) throw new ApiError(401, "missing API key: send Authorization: Bearer <key>", "authentication_error", null, "missing_api_key");
    const token = bearerToken(header);
    if (!token) throw new ApiError(401, "malformed Authorization header: expected Bearer <key>", "authentication_error", null, "invalid_api_key");
    if (!(await keys.verify(token))) throw new ApiError(401, "invalid or revoked API key", "authentication_error", null, "invalid_api_key");
  };
}
