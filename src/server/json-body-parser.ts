// JSON bodies are read in the charset their Content-Type names, UTF-8 when it names none. Fastify's
// own parser reads every body as UTF-8: a UTF-16 body was "not valid JSON", and Latin-1 bytes
// (Windows PowerShell 5.1's Invoke-RestMethod sends a string body so) reached the model with each
// accented letter as U+FFFD. Bytes that are not UTF-8 are refused, saying how to send them.
import type { FastifyInstance } from "fastify";
import { ApiError } from "./errors";

const mediaType = "application/json";

export function addJsonBodyParser(app: FastifyInstance): void {
  // Fastify's own, with its defaults against __proto__ and constructor.prototype keys.
  const parseText = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser(mediaType);
  app.addContentTypeParser(mediaType, { parseAs: "buffer" }, (request, body, done) => {
    let text: string;
    try {
      text = decodeBody(body as Buffer, request.headers["content-type"] ?? mediaType);
    } catch (error) {
      done(error as ApiError, undefined);
      return;
    }
    parseText(request, text, done);
  });
}

function decodeBody(body: Buffer, contentType: string): string {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1];
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset ?? "utf-8", { fatal: true });
  } catch {
    throw new ApiError(415, `the body's charset '${charset}' is not one the server reads: send JSON as UTF-8 (Content-Type: application/json)`, "invalid_request_error", null, "unsupported_charset");
  }
  try {
    return decoder.decode(body);
  } catch {
    const said = charset === undefined ? "the body is not UTF-8" : `the body is not valid ${charset}`;
    throw new ApiError(400, `${said}: send JSON as UTF-8, or name its charset (Content-Type: application/json; charset=iso-8859-1)`, "invalid_request_error", null, "invalid_encoding");
  }
}
