import * as assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../harness/free-port";
import { markedProcesses } from "../harness/marked-processes";
import { spawnGroup, type GroupProcess } from "../harness/process-group";
import { repoRoot } from "../harness/toolchain";
import { waitFor } from "../harness/wait-for";

const marker = "WISP_START_TEST_RUN";
const startTempDirs = (): string[] => readdirSync(tmpdir()).filter((name) => name.startsWith("wisp-start-"));

describe("npm start", () => {
  const runId = `${process.pid}-${Date.now()}`;
  let start: GroupProcess | undefined;
  let output = "";

  after(async () => {
    // Only if the test failed half-way: leave nothing behind either way.
    await start?.stop(1000);
    for (const pid of markedProcesses(marker, runId)) process.kill(pid, "SIGKILL");
  });

  it("serves VS Code with Wisp at the printed URL, and Ctrl+C stops everything", async () => {
    const tempBefore = new Set(startTempDirs());
    const port = await freePort();
    // --no-screenshot: ghost text belongs to the completion tests; this one is about the lifecycle.
    start = spawnGroup(process.execPath, ["scripts/start.mjs", "--port", String(port), "--no-screenshot"], {
      cwd: repoRoot,
      env: { ...process.env, [marker]: runId },
      stdio: ["ignore", "pipe", "pipe"],
    });
    start.child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    start.child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));

    const url = await waitFor("the URL to open", () => /Open (http\S+)/.exec(output)?.[1], (u) => u !== undefined || start?.child.exitCode !== null, 240_000);
    assert.ok(url, `npm start printed no URL:\n${output}`);
    const page = await fetch(url);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /vscode|workbench/i);
    const models = await fetch(`http://127.0.0.1:${port}/v1/models`);
    assert.equal(models.status, 401, "the local server answers, and wants the key");
    // The web console's login URL, when this build of the server has one.
    const consoleLine = /Web console: (.+)/.exec(output)?.[1];
    assert.ok(consoleLine, `npm start printed no web console line:\n${output}`);
    if (consoleLine !== "not in this build of wisp-server") {
      const login = new URL(consoleLine);
      assert.equal(login.origin, `http://127.0.0.1:${port}`);
      assert.ok((await fetch(login, { redirect: "manual" })).status < 400, "the console's login URL answers");
      const token = login.searchParams.get("token");
      assert.ok(token && !readFileSync(join(repoRoot, ".wisp/logs/server.log"), "utf8").includes(token), "the token is not in the server log");
    }
    await waitFor("running", () => output, (text) => text.includes("press Ctrl+C"), 60_000);
    assert.ok(markedProcesses(marker, runId).length >= 3, "start, the server and code-server run");

    // What a terminal does on Ctrl+C: SIGINT to the foreground process group.
    process.kill(-start.child.pid!, "SIGINT");
    const code = await start.exited;
    assert.equal(code, 0, output);
    const left = await waitFor("no process left", () => markedProcesses(marker, runId), (pids) => pids.length === 0, 15_000);
    assert.deepEqual(left, []);
    await assert.rejects(fetch(url), "code-server no longer answers");
    assert.deepEqual(startTempDirs().filter((name) => !tempBefore.has(name)), [], "temporary folders removed");
  });
});
