import assert from "node:assert/strict";
import net from "node:net";
import { parseCommand } from "../../src/server/cli-args";
import { rawRequest, type RawResponse } from "../harness/raw-request";
import { startServer, TEXT_MODEL, type TestServer } from "./server-fixture";

/** --allowed-hosts as the command line reads it. */
function allowedHostsFlag(value: string) {
  const command = parseCommand(["--allowed-hosts", value], {});
  assert.ok(command.kind === "serve");
  return command.config.allowedHosts;
}

/** GET `path` as a browser that reached the server under the name `host` would send it. */
function getAs(server: TestServer, host: string, path: string, keyed = false): Promise<RawResponse> {
  return rawRequest(server.origin, path, { headers: { host, ...(keyed ? { authorization: `Bearer ${server.key}` } : {}) } });
}

/** The unkeyed routes a page could read, and a keyed one: each as a user checks it answers. */
async function assertAnswers(server: TestServer, host: string): Promise<void> {
  const metrics = await getAs(server, host, "/metrics");
  assert.equal(metrics.status, 200, `${host} /metrics`);
  assert.match(metrics.text, /wisp_requests_total/);
  assert.deepEqual(JSON.parse((await getAs(server, host, "/ready")).text), { status: "ready" }, `${host} /ready`);
  const models = await getAs(server, host, "/v1/models", true);
  assert.equal(models.status, 200, `${host} /v1/models`);
  assert.ok((JSON.parse(models.text) as { data: { id: string }[] }).data.some((m) => m.id === TEXT_MODEL));
}

function assertRefused(response: RawResponse, name: string, what: string): void {
  assert.equal(response.status, 403, what);
  const { error } = JSON.parse(response.text) as { error: { message: string; type: string; param: null; code: string } };
  assert.equal(error.code, "host_not_allowed", what);
  assert.equal(error.type, "invalid_request_error");
  assert.ok(error.message.includes(`Host '${name}'`) && error.message.includes(`--allowed-hosts ${name}`), error.message);
}

/** A request as HAProxy's `option httpchk` sends it: HTTP/1.0, no Host header at all. */
function hostless(server: TestServer, path: string): Promise<string> {
  const { hostname, port } = new URL(server.origin);
  return new Promise((resolve, reject) => {
    let text = "";
    const socket = net.connect(Number(port), hostname, () => socket.write(`GET ${path} HTTP/1.0\r\n\r\n`));
    socket.on("data", (d: Buffer) => (text += d.toString()));
    socket.on("end", () => resolve(text));
    socket.on("error", reject);
  });
}

describe("the Host check (DNS rebinding)", function () {
  this.timeout(120_000);

  describe("on a loopback address", () => {
    let server: TestServer;
    const lines: string[] = [];
    before(async () => {
      server = await startServer({ accessLog: true, log: (line) => lines.push(line) });
    });
    after(() => server.close());

    it("refuses a page's name that points at 127.0.0.1 on every route, keyed or not, and reveals nothing", async () => {
      const host = `attacker.example:${new URL(server.origin).port}`;
      for (const path of ["/metrics", "/metrics.json", "/ready", "/health", "/login", "/", "/console/console.css", "/no-such-route"]) {
        const response = await getAs(server, host, path);
        assertRefused(response, "attacker.example", path);
        assert.ok(!response.text.includes("wisp_requests_total") && !response.text.includes("<form"), path);
      }
      assertRefused(await getAs(server, host, "/v1/models", true), "attacker.example", "/v1/models with a key");
      const loginLink = await rawRequest(server.origin, "/console/api/login-link", { method: "POST", headers: { host, authorization: `Bearer ${server.adminToken}` } });
      assertRefused(loginLink, "attacker.example", "POST /console/api/login-link with the admin token");
      const completion = await rawRequest(server.origin, "/v1/completions", {
        method: "POST",
        headers: { host, authorization: `Bearer ${server.key}`, "content-type": "application/json" },
        body: JSON.stringify({ model: TEXT_MODEL, prompt: "x", max_tokens: 1 }),
      });
      assertRefused(completion, "attacker.example", "POST /v1/completions with a key");
    });

    it("answers this machine's names and addresses, with any port", async () => {
      for (const host of ["localhost:8765", "LOCALHOST", "127.0.0.1:1", "[::1]:8765", "wisp.localhost", new URL(server.origin).host]) await assertAnswers(server, host);
    });

    it("answers requests without a Host header (a balancer's health check; browsers always send one)", async () => {
      assert.match(await hostless(server, "/ready"), /^HTTP\/1\.[01] 200 [\s\S]*"status":"ready"/);
    });

    it("logs each refused name once, however many requests give it, and no access-log line for each", async () => {
      const before = lines.length;
      for (let i = 0; i < 20; i++) await getAs(server, i % 2 === 0 ? "flood.example" : "other.example:80", "/metrics");
      const logged = lines.slice(before);
      assert.deepEqual(
        logged.map((line) => /^refused a request for Host '([^']+)'/.exec(line)?.[1]),
        ["flood.example", "other.example"],
      );
      assert.match(logged[0]!, /--allowed-hosts flood\.example/);
      await getAs(server, "localhost", "/health");
      assert.match(lines.at(-1)!, /^GET \/health 200 /, "answered requests are in the access log as before");
    });
  });

  describe("with --allowed-hosts", () => {
    let server: TestServer;
    before(async () => {
      server = await startServer({ allowedHosts: allowedHostsFlag("wisp.example.com,.team.example") });
    });
    after(() => server.close());

    it("answers the names listed, and names under a leading-dot entry, besides this machine's", async () => {
      for (const host of ["wisp.example.com:8765", "team.example", "gpu.team.example:443", "localhost:8765", "127.0.0.1"]) await assertAnswers(server, host);
    });

    it("still refuses every other name", async () => {
      for (const host of ["attacker.example", "example.com", "evilteam.example", "wisp.example.com.attacker.example"]) {
        assertRefused(await getAs(server, host, "/metrics"), host, host);
      }
    });

    it("all turns the check off", async () => {
      const open = await startServer({ allowedHosts: allowedHostsFlag("all") });
      try {
        await assertAnswers(open, "attacker.example");
      } finally {
        await open.close();
      }
    });
  });

  describe("on an address other machines reach (a team server behind a balancer)", () => {
    it("answers every name by default", async () => {
      const server = await startServer({ host: "0.0.0.0" });
      try {
        await assertAnswers(server, "wisp.team.example");
        await assertAnswers(server, "attacker.example:8765");
      } finally {
        await server.close();
      }
    });

    it("enforces --allowed-hosts once it is given", async () => {
      const server = await startServer({ host: "0.0.0.0", allowedHosts: allowedHostsFlag("wisp.team.example") });
      try {
        await assertAnswers(server, "wisp.team.example");
        assertRefused(await getAs(server, "attacker.example:8765", "/ready"), "attacker.example", "/ready");
      } finally {
        await server.close();
      }
    });
  });
});
