import assert from "node:assert/strict";
import { connect, type Socket } from "node:net";
import { errorShapeProblem, startReliabilityServer, whileProbing, type ReliabilityServer } from "./reliability-server";
import { record, scaled } from "./report";

/** The server runs with --request-timeout 2 here: slow clients are cut off after 2 s. */
const requestTimeoutS = 2;

interface Cut {
  /** ms from connecting until the server closed the connection. */
  closedAfterMs: number;
  /** What the server wrote before closing (a 408 status line, or nothing). */
  answer: string;
}

/** Opens a raw connection, writes `first`, then one byte of `trickle` every `everyMs` until the server closes it. */
function slowClient(server: ReliabilityServer, first: string, trickle: string, everyMs: number): Promise<Cut> {
  const { hostname, port } = new URL(server.origin);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let answer = "";
    let sent = 0;
    const socket: Socket = connect({ host: hostname, port: Number(port) }, () => socket.write(first));
    const timer = setInterval(() => {
      if (sent < trickle.length && !socket.destroyed) socket.write(trickle[sent++]!);
    }, everyMs);
    const giveUp = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept a slow client for over 20 s (${sent} bytes trickled)`));
    }, 20_000);
    socket.on("data", (chunk) => (answer += chunk.toString()));
    socket.on("error", () => undefined); // a reset is one way of being cut off
    socket.on("close", () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      resolve({ closedAfterMs: Date.now() - started, answer });
    });
  });
}

describe("oversized bodies and slow clients (real server process)", function () {
  this.timeout(180_000);
  let server: ReliabilityServer;
  before(async () => {
    server = await startReliabilityServer({ args: ["--request-timeout", String(requestTimeoutS)] });
  });
  after(() => server?.stop());

  it("answers a 40 MB body with a 413 that Node's fetch (the openai SDK's transport) actually receives", async () => {
    const tries = scaled(6, 20);
    const body = JSON.stringify({ model: "wisp-tiny", prompt: "x".repeat(40 * 1024 * 1024) });
    const seen: string[] = [];
    let failures = 0;
    for (const [path, authorization, status] of [
      ["/v1/completions", `Bearer ${server.key}`, 413],
      ["/v1/images/generations", `Bearer ${server.key}`, 413],
      ["/v1/completions", "Bearer not-a-key", 401],
    ] as const) {
      for (let i = 0; i < tries; i++) {
        let result: string;
        try {
          const response = await fetch(server.origin + path, { method: "POST", headers: { authorization, "content-type": "application/json" }, body });
          const problem = errorShapeProblem(await response.json());
          result = response.status === status && !problem ? "ok" : `${response.status} ${problem ?? ""}`;
        } catch (error) {
          result = `fetch failed: ${String((error as { cause?: { code?: string } }).cause?.code ?? error)}`;
        }
        if (result !== "ok") failures++;
        seen.push(`${path} ${status}: ${result}`);
      }
    }
    record({ category: "40 MB bodies", cases: seen.length, failures, notes: `413/401 received by fetch ${seen.length - failures}/${seen.length}` });
    assert.deepEqual(seen.filter((s) => !s.endsWith(": ok")), []);
  });

  it("cuts off clients that send headers or a body too slowly, while serving others meanwhile", async () => {
    const slowHeaders = "POST /v1/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n";
    const trickle = `Authorization: Bearer ${server.key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n${"x".repeat(100)}`;
    const slowBodyHead = `POST /v1/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${server.key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`;
    const { result: cuts, healthy: probe } = await whileProbing(server, 100, () => Promise.all([
      slowClient(server, slowHeaders, trickle, 300),
      slowClient(server, slowHeaders, trickle, 300),
      slowClient(server, slowBodyHead, "{".padEnd(100, " "), 300),
      slowClient(server, slowBodyHead, "{".padEnd(100, " "), 300),
    ]));
    const healthy = probe.latenciesMs;
    const healthyFailures = probe.failures;
    const worst = Math.max(...healthy);
    // Expiry is checked every second: cut within the timeout plus that interval and some slack.
    const late = cuts.filter((c) => c.closedAfterMs > (requestTimeoutS + 3) * 1000);
    record({
      category: "slow clients",
      cases: cuts.length,
      failures: late.length + healthyFailures,
      notes: `cut after ${cuts.map((c) => (c.closedAfterMs / 1000).toFixed(1)).join("/")} s (timeout ${requestTimeoutS} s); others served ${healthy.length}×, worst ${worst} ms`,
    });
    assert.deepEqual(late, [], "slow clients were cut off within the request timeout");
    for (const cut of cuts) assert.ok(cut.closedAfterMs >= requestTimeoutS * 1000 - 100, `cut too early: ${cut.closedAfterMs} ms`);
    assert.equal(healthyFailures, 0, "other clients were served meanwhile");
    assert.ok(healthy.length >= 10, `others were served (${healthy.length} requests)`);
  });
});
