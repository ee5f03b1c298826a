import assert from "node:assert/strict";
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { McpConnection } from "../../../src/extension/mcp/mcp-connection";
import { waitFor } from "../../harness/wait-for";

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

describe("a stdio MCP server that writes what the client cannot read", () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "wisp-mcp-"));
    // A line of log on stdout first (a common mistake of servers), then MCP; the tool answers with SIZE characters.
    writeFileSync(
      join(dir, "server.js"),
      `console.log("Server started on stdio");
const send = (m) => process.stdout.write(JSON.stringify(m) + "\\n");
require("readline").createInterface({ input: process.stdin }).on("line", (line) => {
  const msg = JSON.parse(line);
  if (msg.method === "initialize") send({ jsonrpc: "2.0", id: msg.id, result: { protocolVersion: msg.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "dump", version: "1" } } });
  else if (msg.method === "tools/list") send({ jsonrpc: "2.0", id: msg.id, result: { tools: [{ name: "dump", inputSchema: { type: "object" } }] } });
  else if (msg.method === "tools/call" && msg.params.arguments.log) {
    // One line of log in three writes, the é's two bytes in two of them: three reads of the pipe.
    const e = Buffer.from("é");
    process.stderr.write(Buffer.concat([Buffer.from("half a line, caf"), e.subarray(0, 1)]));
    setTimeout(() => process.stderr.write(e.subarray(1)), 50);
    setTimeout(() => { process.stderr.write(" and its end\\n"); send({ jsonrpc: "2.0", id: msg.id, result: { content: [{ type: "text", text: "logged" }] } }); }, 100);
  }
  else if (msg.method === "tools/call") send({ jsonrpc: "2.0", id: msg.id, result: { content: [{ type: "text", text: "x".repeat(msg.params.arguments.size) }] } });
});`,
    );
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const open = async () => {
    const said: string[] = [];
    const closed: (string | undefined)[] = [];
    const events = { output: (line: string) => said.push(line), closed: (reason?: string) => closed.push(reason), toolsChanged: () => {} };
    const connection = await McpConnection.open("dump", { type: "stdio", command: process.execPath, args: [join(dir, "server.js")], env: {} }, "0.0.0", events);
    return { connection, said, closed };
  };

  it("a result over 10 MB: the call's error and the server's end say so (not 'Connection closed', as if the server had exited)", async function () {
    this.timeout(30_000);
    const { connection, said, closed } = await open();
    try {
      await assert.rejects(connection.call("dump", { size: 11_000_000 }, 20_000, new AbortController().signal), /Connection closed: it sent a message over 10 MB/);
      assert.deepEqual(closed, ["it sent a message over 10 MB (a tool result that large is not read), so Wisp closed the connection"]);
      assert.equal(said.filter((line) => line.includes("over 10 MB")).length, 1, said.join("\n"));
    } finally {
      await connection.close();
    }
  });

  it("a line of its stderr that the pipe delivers in pieces is shown whole, its characters too", async function () {
    this.timeout(30_000);
    const { connection, said } = await open();
    try {
      await connection.call("dump", { log: true }, 20_000, new AbortController().signal);
      await waitFor("the line shown", () => said.filter((line) => line.includes("half a line")), (lines) => lines.length > 0 && said.some((l) => l.includes("its end")));
      assert.deepEqual(said.filter((line) => /half a line|its end|caf/.test(line)), ["half a line, café and its end"]);
    } finally {
      await connection.close();
    }
  });

  it("a line on stdout that is not MCP is said in the output, and the server works", async function () {
    this.timeout(30_000);
    const { connection, said } = await open();
    try {
      assert.deepEqual(connection.tools.map((t) => t.name), ["dump"]);
      const result = await connection.call("dump", { size: 3 }, 20_000, new AbortController().signal);
      assert.deepEqual(result.content, [{ type: "text", text: "xxx" }]);
      assert.ok(said.some((line) => line.startsWith("not an MCP message on stdout:")), said.join("\n"));
    } finally {
      await connection.close();
    }
  });
});
