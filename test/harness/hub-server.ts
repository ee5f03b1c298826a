// A model hub on loopback for download tests: serves files at /{repo}/resolve/main/{file} with
// HTTP range requests, and can misbehave the ways real networks do (a connection cut part-way, a
// size no disk holds), recording each request's range so tests see how a download resumed.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface HubFile {
  readonly body: Buffer;
  /**
   * The first request that asks for the whole file gets this many bytes, then the connection drops
   * (once `cutWhen` resolves, if given: the test waits for the bytes to reach the client's disk, since
   * a stream that errors discards what its reader had not taken yet).
   */
  readonly cutFirstAfter?: number;
  readonly cutWhen?: Promise<void>;
  /** Announces this size (a range request: the rest of it), sends nothing and closes (a file larger than any disk). */
  readonly announceBytes?: number;
  readonly contentType?: string;
  /** Sends the first `holdAfter` bytes, then the rest only once `gate` resolves (a download in flight). */
  readonly holdAfter?: number;
  readonly gate?: Promise<void>;
}

export interface HubRequest {
  readonly path: string;
  readonly range?: string;
}

export class HubServer {
  readonly requests: HubRequest[] = [];
  private readonly files = new Map<string, HubFile>();
  private readonly cut = new Set<string>();

  private constructor(private readonly server: Server, readonly origin: string) {}

  static async start(): Promise<HubServer> {
    let hub: HubServer | undefined;
    const server = createServer((req, res) => hub!.handle(req.url ?? "/", req.headers.range, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    hub = new HubServer(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return hub;
  }

  /** Serves `file` at /{repo}/resolve/main/{name}; returns its full URL. */
  serve(repo: string, name: string, file: HubFile): string {
    const path = `/${repo}/resolve/main/${name}`;
    this.files.set(path, file);
    this.cut.delete(path);
    return `${this.origin}${path}`;
  }

  requestsFor(url: string): HubRequest[] {
    const path = new URL(url).pathname;
    return this.requests.filter((r) => r.path === path);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private handle(url: string, range: string | undefined, res: import("node:http").ServerResponse): void {
    const path = decodeURIComponent(new URL(url, this.origin).pathname);
    this.requests.push(range === undefined ? { path } : { path, range });
    const file = this.files.get(path);
    if (!file) {
      res.writeHead(404, { "content-type": "text/plain" }).end("Entry not found");
      return;
    }
    const type = file.contentType ?? "application/octet-stream";
    if (file.announceBytes !== undefined) {
      const from = Number(/^bytes=(\d+)-$/.exec(range ?? "")?.[1] ?? 0);
      const rest = from > 0 ? { "content-range": `bytes ${from}-${file.announceBytes - 1}/${file.announceBytes}` } : {};
      res.writeHead(from > 0 ? 206 : 200, { "content-type": type, "content-length": file.announceBytes - from, ...rest });
      res.flushHeaders();
      res.destroy();
      return;
    }
    const start = Number(/^bytes=(\d+)-$/.exec(range ?? "")?.[1] ?? 0);
    if (start >= file.body.length && start > 0) {
      res.writeHead(416, { "content-range": `bytes */${file.body.length}` }).end();
      return;
    }
    const rest = file.body.subarray(start);
    res.writeHead(start > 0 ? 206 : 200, {
      "content-type": type,
      "content-length": rest.length,
      "accept-ranges": "bytes",
      ...(start > 0 ? { "content-range": `bytes ${start}-${file.body.length - 1}/${file.body.length}` } : {}),
    });
    if (start === 0 && file.cutFirstAfter !== undefined && !this.cut.has(path)) {
      this.cut.add(path);
      // Written, then the connection closed after them (gracefully, so every byte sent arrives): the
      // client sees a body shorter than its Content-Length.
      res.write(rest.subarray(0, file.cutFirstAfter), () => void (file.cutWhen ?? Promise.resolve()).then(() => res.socket?.end()));
      return;
    }
    if (file.holdAfter !== undefined && file.gate) {
      res.write(rest.subarray(0, file.holdAfter));
      void file.gate.then(() => res.end(rest.subarray(file.holdAfter)));
      return;
    }
    res.end(rest);
  }
}
