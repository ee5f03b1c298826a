// Request bodies sent compressed (Content-Encoding: gzip, deflate or br, as HTTP clients set to
// compress uploads send them) are read decompressed; fastify reads a body as it arrives, so
// without this a compressed JSON body was refused as "not valid JSON". The body limit applies to
// the decompressed bytes (fastify counts what this stream gives), so a small compressed body
// cannot expand past it.
import type { IncomingMessage } from "node:http";
import { PassThrough, type Readable, type Transform } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { ApiError } from "./errors";

const decoders: Record<string, () => Transform> = {
  gzip: createGunzip,
  "x-gzip": createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

const SUPPORTED = "gzip, deflate or br";

/** What fastify reads as the body: the request itself, or its decompressed bytes. */
export function decodedBody(request: IncomingMessage, payload: Readable): Readable {
  const encoding = (request.headers["content-encoding"] ?? "").trim().toLowerCase();
  if (encoding === "" || encoding === "identity" || request.method === "GET" || request.method === "HEAD") return payload;
  const decoder = decoders[encoding];
  if (!decoder) {
    throw new ApiError(415, `Content-Encoding '${encoding}' is not supported: send the body uncompressed, or compressed with ${SUPPORTED}`, "invalid_request_error", null, "unsupported_content_encoding");
  }
  // fastify compares Content-Length with the bytes that came, not those decompressed.
  const out = Object.assign(new PassThrough(), { receivedEncodedLength: 0 });
  // A request nothing reads (one without a body) must not end the process with an unheard error.
  out.on("error", () => undefined);
  const inflate = decoder();
  inflate.on("error", (error) => {
    out.destroy(new ApiError(400, `the body is not valid ${encoding} (Content-Encoding: ${encoding}): ${error.message}`, "invalid_request_error", null, "invalid_body_encoding"));
  });
  payload.on("data", (chunk: Buffer) => {
    out.receivedEncodedLength += chunk.length;
  });
  payload.pipe(inflate).pipe(out);
  return out;
}
