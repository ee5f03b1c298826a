import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import type { McpServerConfig } from "../../core/mcp/mcp-config";
import type { ResultContent, ServerTool } from "../../core/mcp/mcp-tools";

export interface ConnectionEvents {
  /** A line the server wrote to stderr (or a note about its transport). */
  output(line: string): void;
  /** The connection ended without being asked to (the process exited, the HTTP session closed); `reason` when the client ended it. */
  closed(reason?: string): void;
  /** The server said its tools changed (`notifications/tools/list_changed`) and they were listed again. */
  toolsChanged(): void;
}

/** Longest wait for a server to start and answer `initialize`. */
const startTimeoutMs = 30_000;
const closeTimeoutMs = 3_000;
/** Longest wait for a tool list: the agent's next step waits for a list the server said changed. */
const listTimeoutMs = 15_000;
/** The SDK's stdio transport reads no message longer than this (its default): it closes the connection instead. */
const maxMessageBytes = 10 * 1024 * 1024;

/**
 * One running MCP server: the SDK's client over stdio, Streamable HTTP or (older servers) SSE. Its
 * tools are listed at the start and again whenever the server announces a change.
 */
export class McpConnection {
  private closing = false;
  private listed: readonly ServerTool[] = [];
  /** Listings asked for and the newest one applied: an older answer never replaces a newer one. */
  private requested = 0;
  private applied = 0;
  /** Listings under way after the server announced a change (the agent's next step waits for them). */
  private readonly relisting = new Set<Promise<void>>();

  private constructor(
    private readonly client: Client,
    private readonly name: string,
    private readonly events: ConnectionEvents,
    /** Why the client ended the connection, once it has. */
    private readonly ended: () => string | undefined,
  ) {}

  /** The tools as last listed. */
  get tools(): readonly ServerTool[] {
    return this.listed;
  }

  /** The tools, once every change the server announced so far has been listed. */
  async currentTools(): Promise<readonly ServerTool[]> {
    while (this.relisting.size > 0) await Promise.all(this.relisting);
    return this.listed;
  }

  static async open(name: string, config: McpServerConfig, version: string, events: ConnectionEvents, timeoutMs = startTimeoutMs): Promise<McpConnection> {
    let connection: McpConnection | undefined;
    const stderr: string[] = [];
    let ended: string | undefined;
    const newClient = () => {
      const made = new Client({ name: "wisp", version });
      // Said, not dropped: a line on stdout that is not JSON-RPC, or a message too long to read (the
      // transport then closes the connection, which otherwise reads as the server having exited).
      made.onerror = (error) => {
        // The rest of the message too long arrives after it: no more to say.
        if (ended !== undefined) return;
        const tooLong = /exceeded maximum size/.test(error.message);
        if (tooLong) ended = `it sent a message over ${maxMessageBytes / 1024 / 1024} MB (a tool result that large is not read), so Wisp closed the connection`;
        events.output(tooLong ? ended! : `not an MCP message on stdout: ${error.message.split("\n")[0]}`);
      };
      made.onclose = () => {
        if (connection && !connection.closing) events.closed(ended);
      };
      return made;
    };
    // The client connecting now: an http server's SSE fallback replaces the first, and a start that
    // times out must close the one still connecting, not the one already closed.
    const live = { client: newClient() };
    try {
      const client = await withTimeout(
        connect(live, newClient, config, (line) => {
          // Only the last lines go in a failed start's message: a chatty server's would grow for good.
          if (stderr.push(line) > 5) stderr.shift();
          events.output(line);
        }),
        timeoutMs,
        `did not answer within ${timeoutMs / 1000} s`,
      );
      const opened = new McpConnection(client, name, events, () => ended);
      // Set before the first listing: a change announced while it runs is listed again after it.
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => opened.listChanged());
      await opened.list();
      connection = opened;
      return connection;
    } catch (error) {
      await live.client.close().catch(() => undefined);
      const tail = stderr.slice(-5).join("\n").trim();
      throw new Error(`${(error as Error).message}${tail ? `\n${tail}` : ""}`);
    }
  }

  private async list(): Promise<void> {
    const asked = ++this.requested;
    const listed = await this.client.listTools(undefined, { timeout: listTimeoutMs });
    if (asked < this.applied) return;
    this.applied = asked;
    this.listed = listed.tools.map((t) => ({ server: this.name, name: t.name, ...(t.description ? { description: t.description } : {}), inputSchema: t.inputSchema as Record<string, unknown> }));
  }

  /**
   * The server said its tools changed: listed again at once. The notification comes before the
   * answer of the call during which the server changed them, so the next step sees the new list.
   */
  private listChanged(): void {
    const listing = this.list().then(
      () => this.events.toolsChanged(),
      (error: Error) => {
        if (!this.closing) this.events.output(`listing the changed tools failed: ${error.message}`);
      },
    );
    this.relisting.add(listing);
    void listing.finally(() => this.relisting.delete(listing));
  }

  async call(tool: string, args: Record<string, unknown>, timeoutMs: number, signal: AbortSignal): Promise<{ content: ResultContent[]; isError: boolean; structured?: unknown }> {
    const result = await this.client.callTool({ name: tool, arguments: args }, undefined, { timeout: timeoutMs, signal }).catch((error: Error) => {
      const reason = this.ended();
      throw reason ? new Error(`${error.message}: ${reason}`) : error;
    });
    const content = Array.isArray(result.content) ? (result.content as ResultContent[]) : [];
    return { content, isError: result.isError === true, ...(result.structuredContent !== undefined ? { structured: result.structuredContent } : {}) };
  }

  /** Ends the connection; a server that does not let go in time is left to the transport (never waited on forever). */
  async close(): Promise<void> {
    this.closing = true;
    await withTimeout(this.client.close(), closeTimeoutMs, "close timed out").catch(() => undefined);
  }
}

/** The client connected (for an http server that only speaks SSE: a second client, over SSE). */
async function connect(live: { client: Client }, newClient: () => Client, config: McpServerConfig, output: (line: string) => void): Promise<Client> {
  const { client } = live;
  if (config.type === "stdio") {
    const transport = new StdioClientTransport({
      command: config.command,
      args: [...config.args],
      env: { ...getDefaultEnvironment(), ...config.env },
      ...(config.cwd ? { cwd: config.cwd } : {}),
      stderr: "pipe",
    });
    // Lines, not chunks: a line (or a character) the pipe delivers in two pieces is shown whole.
    if (transport.stderr) {
      const lines = createInterface({ input: transport.stderr as Readable, crlfDelay: Infinity });
      lines.on("line", (line) => {
        if (line.trim() !== "") output(line);
      });
    }
    await client.connect(transport);
    return client;
  }
  const url = new URL(config.url);
  const requestInit = { headers: { ...config.headers } };
  if (config.type === "http") {
    try {
      await client.connect(new StreamableHTTPClientTransport(url, { requestInit }) as Transport);
      return client;
    } catch (error) {
      // Servers from before Streamable HTTP speak SSE only: the spec's fallback, on a fresh client.
      output(`Streamable HTTP failed (${(error as Error).message}); trying SSE`);
      await client.close().catch(() => undefined);
      live.client = newClient();
    }
  }
  await live.client.connect(new SSEClientTransport(url, { requestInit }));
  return live.client;
}

function withTimeout<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)));
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
