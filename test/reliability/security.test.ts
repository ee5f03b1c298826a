import assert from "node:assert/strict";
import { statSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "../harness/wait-for";
import { startReliabilityServer, TEXT_MODEL, type ReliabilityServer } from "./reliability-server";
import { record } from "./report";

const logLines = (server: ReliabilityServer, line: RegExp) => server.output().split("\n").filter((l) => line.test(l)).length;

describe("auth, CORS and logs (real server process)", function () {
  this.timeout(120_000);
  let server: ReliabilityServer;
  before(async () => {
    server = await startReliabilityServer();
  });
  after(() => server?.stop());

  it("sends no CORS headers: a page on another origin cannot read the API", async () => {
    const origin = "http://evil.example";
    const logged = () => logLines(server, /\bGET \/v1\/models 200 /) + logLines(server, /\bGET \/health 200 /);
    const loggedBefore = logged();
    const checks = [
      await fetch(`${server.baseUrl}/chat/completions`, { method: "OPTIONS", headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization,content-type" } }),
      await fetch(`${server.baseUrl}/models`, { headers: { origin, authorization: `Bearer ${server.key}` } }),
      await fetch(`${server.origin}/health`, { headers: { origin } }),
    ];
    const allowing = checks.filter((r) => r.headers.get("access-control-allow-origin") !== null || r.headers.get("access-control-allow-credentials") !== null);
    record({ category: "CORS", cases: checks.length, failures: allowing.length, notes: `preflight ${checks[0]!.status}, no Access-Control-Allow-* headers` });
    assert.equal(allowing.length, 0);
    assert.notEqual(checks[0]!.status, 204, "a preflight is not approved");
    // Leaves the log settled for the next test, which counts its own requests' lines.
    await waitFor("the access log of these requests", logged, (n) => n >= loggedBefore + 2);
  });

  it("never writes keys, rejected keys or request bodies to its output, and keeps its key file owner-only", async () => {
    const wrongKey = "wisp-thisIsNotAKeyButLooksLikeOne0123456789abcdefghij";
    const secretPrompt = "my password is hunter2-0123456789";
    // Each request below has its own access-log line, written once its response has gone.
    const accessLines: [line: RegExp, requests: number][] = [[/\bGET \/v1\/models 200 /, 2], [/\bGET \/v1\/models 401 /, 1], [/\bPOST \/v1\/completions 200 /, 1], [/\bPOST \/v1\/completions 400 /, 1]];
    const counts = () => accessLines.map(([re]) => logLines(server, re));
    const loggedBefore = counts();
    const requests = [
      server.fetch("/v1/models"),
      server.fetch("/v1/models", { headers: { authorization: `Bearer ${wrongKey}` } }),
      server.fetch("/v1/completions", { method: "POST", body: JSON.stringify({ model: TEXT_MODEL, prompt: secretPrompt, max_tokens: 2 }) }),
      server.fetch("/v1/completions", { method: "POST", body: JSON.stringify({ model: TEXT_MODEL, prompt: secretPrompt, max_tokens: "x" }) }),
      server.fetch(`/v1/models?api_key=${wrongKey}`),
    ];
    const statuses = await Promise.all(requests.map(async (r) => (await r).status));
    await waitFor("an access-log line per request", counts, (now) => now.every((n, i) => n >= loggedBefore[i]! + accessLines[i]![1]));
    const output = server.output();
    const leaks = [server.key, wrongKey, secretPrompt, "hunter2"].filter((s) => output.includes(s));
    const keyFile = statSync(join(server.dataDir, "keys.json")).mode & 0o777;
    record({ category: "secrets in logs", cases: requests.length, failures: leaks.length + (keyFile === 0o600 ? 0 : 1), notes: `${output.split("\n").length} log lines scanned; keys.json mode ${keyFile.toString(8)}` });
    assert.deepEqual(statuses, [200, 401, 200, 400, 200]);
    assert.ok(output.includes("POST /v1/completions 200"), "the access log was scanned");
    assert.deepEqual(leaks, []);
    assert.equal(keyFile, 0o600);
  });
});
