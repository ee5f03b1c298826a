import assert from "node:assert/strict";
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpConnection } from "../../../src/extension/mcp/mcp-connection";

describe("an http MCP server's start that times out during the SSE fallback", () => {
  let server: Server;
  /** The SSE stream the client opened, held without the endpoint event: the fallback never finishes connecting. */
  let sse: Promise<ServerResponse>;

  before(async () => {
    let opened: (res: ServerResponse) => void = () => {};
    sse = new Promise((done) => (opened = done));
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      // Not a Streamable HTTP server: the client falls back to SSE.
      if (req.method !== "GET") return void res.writeHead(405).end();
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.flushHeaders();
      opened(res);
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  it("closes the SSE client still connecting: its stream ends", async () => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    const events = { output: () => {}, closed: () => {}, toolsChanged: () => {} };
    const opening = McpConnection.open("web", { type: "http", url, headers: {} }, "0.0.0", events, 500);
    const stream = await sse;
    await assert.rejects(opening, /did not answer within/);
    // Before, the first (already closed) client was closed again and this stream stayed open for good.
    if (!stream.closed) await once(stream, "close");
  });
});
