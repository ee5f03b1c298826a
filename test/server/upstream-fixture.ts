// A gateway wisp-server in front of upstream wisp-servers (each on the generated tiny model),
// all real apps over real HTTP on loopback ports.
import http from "node:http";
import path from "node:path";
import { buildApp } from "../../src/server/app";
import { waitFor } from "../harness/wait-for";
import { startServer, type StartOptions, type TestServer } from "./server-fixture";

export interface UpstreamSetup {
  gateway: TestServer;
  upstreams: Record<string, TestServer>;
  close(): Promise<void>;
}

/** Starts the setup before a suite's tests and closes it after them; the returned function reads it. */
export function gatewayForSuite(names: string[], gateway: StartOptions = {}, models?: string[]): () => UpstreamSetup {
  let setup: UpstreamSetup | undefined;
  before(async () => {
    setup = await startGateway(names, gateway, models);
  });
  after(() => setup?.close());
  return () => setup!;
}

/**
 * Upstream servers named `names`, and a gateway serving only their models (unless `gateway` says
 * otherwise), of each only `models` where given.
 */
export async function startGateway(names: string[], gateway: StartOptions = {}, models?: string[]): Promise<UpstreamSetup> {
  const upstreams: Record<string, TestServer> = {};
  for (const name of names) upstreams[name] = await startServer();
  const server = await startServer({
    localModels: false,
    // Each upstream's key reaches the gateway as an environment variable, as in a deployment.
    upstreams: names.map((name) => ({ name, baseUrl: upstreams[name]!.baseURL, keyEnv: `UPSTREAM_${name.toUpperCase()}_KEY`, ...(models ? { models } : {}) })),
    env: Object.fromEntries(names.map((name) => [`UPSTREAM_${name.toUpperCase()}_KEY`, upstreams[name]!.key])),
    upstreamTiming: { refreshMs: 2_000, backoffMs: 50, checkTimeoutMs: 2_000 },
    ...gateway,
  });
  return {
    gateway: server,
    upstreams,
    async close() {
      await server.close();
      await Promise.all(Object.values(upstreams).map((u) => u.close()));
    },
  };
}

/** The SSE stream of a POST through node:http, resolved once its first data arrived. */
export function openStream(server: TestServer, path: string, body: object): Promise<{ request: http.ClientRequest; response: http.IncomingMessage; text: () => Promise<string> }> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${server.baseURL}${path}`, { method: "POST", headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" } });
    request.on("response", (response) => {
      let received = "";
      const ended = new Promise<string>((done) => {
        response.on("close", () => done(received));
      });
      response.once("data", (first: Buffer) => {
        received += first.toString();
        response.on("data", (d: Buffer) => (received += d.toString()));
        resolve({ request, response, text: () => ended });
      });
    });
    request.on("error", (error) => (request.destroyed ? undefined : reject(error)));
    request.end(JSON.stringify({ ...body, stream: true }));
  });
}

/** Waits until the gateway reports upstream `name` healthy (or not). */
export function untilHealth(gateway: TestServer, name: string, healthy: boolean): Promise<unknown> {
  return waitFor(`upstream ${name} healthy=${healthy}`, () => gateway.deps.upstreams.status().find((u) => u.name === name), (u) => u?.healthy === healthy);
}

/**
 * Starts a stopped upstream (its app closed, its files kept) again on the same address, with the
 * same models and keys: what a restarted engine looks like to the gateway.
 */
export async function restartUpstream(setup: UpstreamSetup, name: string): Promise<void> {
  const old = setup.upstreams[name]!;
  const { app, deps } = await buildApp({ modelsDir: path.join(old.dir, "models"), dataDir: path.join(old.dir, "data"), parallel: 2, contextSize: 2048 });
  await app.listen({ host: "127.0.0.1", port: Number(new URL(old.origin).port) });
  setup.upstreams[name] = { ...old, app, deps, close: async () => (await app.close(), old.close()) };
}
