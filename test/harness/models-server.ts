import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

export interface ModelsServer {
  /** OpenAI-style base URL, ending in /v1. */
  baseUrl: string;
  /** Authorization headers of the requests received, in order. */
  authorizations: (string | undefined)[];
  close(): Promise<void>;
}

/**
 * A loopback server answering GET /v1/models the way OpenAI does, for one accepted key; anything
 * else gets an OpenAI-shaped error. The extension under test is the real client.
 */
export async function startModelsServer(options: { key: string; models: readonly string[] }): Promise<ModelsServer> {
  const authorizations: (string | undefined)[] = [];
  const server = createServer((request: IncomingMessage, response) => {
    authorizations.push(request.headers.authorization);
    const send = (status: number, body: unknown): void => {
      response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    };
    if (request.headers.authorization !== `Bearer ${options.key}`) {
      send(401, { error: { message: "Incorrect API key provided.", type: "invalid_request_error", param: null, code: "invalid_api_key" } });
    } else if (request.method === "GET" && request.url === "/v1/models") {
      const data = options.models.map((id) => ({ id, object: "model", created: 1_700_000_000, owned_by: "wisp-test" }));
      send(200, { object: "list", data });
    } else {
      send(404, { error: { message: `Unknown route ${request.method} ${request.url}`, type: "invalid_request_error", param: null, code: null } });
    }
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    authorizations,
    close: () => new Promise((done) => server.close(() => done())),
  };
}
