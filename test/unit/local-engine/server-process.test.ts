import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { otherServerVersionNote } from "../../../src/core/local-server/other-server-version";
import { dataFolderHolder, ExitedEarly, otherWispServer, ServerProcess, waitForHolder } from "../../../src/extension/local-engine/server-process";
import type { ServerCommand } from "../../../src/extension/local-engine/server-command";
import { settableTimeOfDay } from "../../harness/settable-time-of-day";

/** A stand-in for wisp-server: a Node script that prints and stays up (or exits) as told. */
function stub(script: string): ServerCommand {
  return { command: process.execPath, argv: () => ["-e", script], env: { ...process.env }, label: "a stub server", custom: false };
}

/** Another server already on the port, answering /health as a Wisp server does. */
async function healthServer(body: Record<string, string>): Promise<{ origin: string; server: Server }> {
  const server = createServer((_request, response) => response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body)));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe("extension/local-engine: a started server counts as up only when the health answer is its own", () => {
  const started: ServerProcess[] = [];
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((p) => p.stop(500)));
    for (const s of servers.splice(0)) s.close();
  });
  const start = (script: string) => {
    const process = ServerProcess.start(stub(script), [], () => {});
    started.push(process);
    return process;
  };

  it("another window's server on the port (another launch) is not taken for ours: ours fails to bind and says so", async () => {
    const other = await healthServer({ status: "ok", launch: "window-a" });
    servers.push(other.server);
    // Still loading for a moment, then the bind fails, as wisp-server's does on a taken port.
    const ours = start(`setTimeout(() => { console.error("Error: listen EADDRINUSE: address already in use"); process.exit(1); }, 1500)`);
    await assert.rejects(ours.waitHealthy(other.origin, 20_000, undefined, "window-b"), (error: unknown) => error instanceof ExitedEarly && /EADDRINUSE/.test(error.output));
  });

  it("its own launch's answer, and an older server's answer without one, count", async () => {
    const own = await healthServer({ status: "ok", launch: "window-b" });
    const older = await healthServer({ status: "ok" });
    servers.push(own.server, older.server);
    const ours = start("setTimeout(() => {}, 30_000)");
    await ours.waitHealthy(own.origin, 20_000, undefined, "window-b");
    await ours.waitHealthy(older.origin, 20_000, undefined, "window-b");
  });

  it("another server already on the port is told to be another Wisp version only when it is a Wisp server: llama.cpp's llama-server says {status: ok} at /health too", async () => {
    // Answers as each does: llama-server has /health and no /metrics.json; a Wisp server before its version field had both.
    const answering = async (paths: Record<string, unknown>) => {
      const server = createServer((request, response) => {
        const body = paths[request.url ?? ""];
        if (body === undefined) response.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { code: 404, message: "File Not Found" } }));
        else response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      servers.push(server);
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    };
    const noteFor = async (origin: string) => {
      const other = await otherWispServer(origin);
      return other && otherServerVersionNote(origin, "0.9.0", other.version);
    };
    const llamaServer = await answering({ "/health": { status: "ok" }, "/v1/models": { object: "list", data: [] } });
    assert.equal(await noteFor(llamaServer), undefined, "no note that llama-server runs an earlier Wisp");
    const earlierWisp = await answering({ "/health": { status: "ok" }, "/metrics.json": { sequences: {}, images: {} } });
    assert.match((await noteFor(earlierWisp)) ?? "", /runs an earlier version \(this Wisp is 0\.9\.0\)/);
    const otherWisp = await answering({ "/health": { status: "ok", version: "0.8.1" } });
    assert.match((await noteFor(otherWisp)) ?? "", /runs version 0\.8\.1/);
    assert.equal(await noteFor(await answering({ "/health": { status: "ok", version: "0.9.0" } })), undefined, "the same version");
  });

  it("a server refused the data folder another one holds: the holder's pid, then its server once it answers on the port, or false once it is gone", async () => {
    const holder = start("setTimeout(() => {}, 30_000)");
    const refusal = `wisp-server: another wisp-server (pid ${holder.pid}) is using the data folder /data: stop it, or give this one another --data-dir`;
    const ours = start(`console.error(${JSON.stringify(refusal)}); process.exit(1)`);
    const error = await ours.waitHealthy("http://127.0.0.1:9", 20_000, undefined, "window-b").then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof ExitedEarly);
    assert.match(error.message, /exited before it answered \(code 1\): wisp-server: another wisp-server \(pid \d+\) is using the data folder \/data/);
    assert.equal(dataFolderHolder(error), holder.pid);
    assert.equal(dataFolderHolder(new ExitedEarly({ code: 1, signal: null }, "Error: listen EADDRINUSE")), undefined);
    // Its server comes up on our port after a moment (another window's, still loading).
    const other = await healthServer({ status: "ok", launch: "window-a" });
    servers.push(other.server);
    assert.equal(await waitForHolder(other.origin, holder.pid!, 20_000), true);
    // Nothing answers there and the holder exits: no use waiting.
    setTimeout(() => void holder.stop(500), 300);
    assert.equal(await waitForHolder("http://127.0.0.1:9", holder.pid!, 20_000), false);
  });

  describe("when the system clock is set back meanwhile (NTP, a laptop waking)", () => {
    const clockSet = settableTimeOfDay();

    it("a server that does not answer is given up after its timeout, not after the hour the clock went back", async () => {
      const ours = start("setTimeout(() => {}, 30_000)");
      const waited = ours.waitHealthy("http://127.0.0.1:9", 500, AbortSignal.timeout(5_000), "window-b");
      clockSet.shift(-3_600_000);
      await assert.rejects(waited, /did not answer within 1 s/);
    });

    it("so is the holder of the data folder", async () => {
      const holder = start("setTimeout(() => {}, 30_000)");
      const signal = AbortSignal.timeout(5_000);
      const waited = waitForHolder("http://127.0.0.1:9", holder.pid!, 500, signal);
      clockSet.shift(-3_600_000);
      assert.equal(await waited, false);
      assert.equal(signal.aborted, false, "given up at its timeout, before the test's 5 s");
    });
  });
});
