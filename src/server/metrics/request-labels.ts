// What a request's metrics are labelled and timed with, noted on the request as it is served.
import type { FastifyRequest } from "fastify";

declare module "fastify" {
  interface FastifyRequest {
    /** The model that served it (only models the server knows: labels stay few). */
    wispModel: string | null;
    /** The upstream that answered it, when one did. */
    wispUpstream: string | null;
    /** performance.now() when its first token went out (streams). */
    wispFirstTokenAt: number | null;
  }
}

/** Notes the first token of a stream (later calls keep the first). */
export function markFirstToken(request: FastifyRequest): void {
  request.wispFirstTokenAt ??= performance.now();
}
