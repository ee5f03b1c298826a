import * as assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, readlinkSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import * as vscode from "vscode";
import { fromServer } from "../../src/core/completion/types";
import type { LocalServerState } from "../../src/core/local-server/local-server-state";
import type { WispApi } from "../../src/extension/extension";
import { StopMarker } from "../../src/extension/local-engine/stop-marker";
import { freePort } from "../harness/free-port";
import { startModelsServer } from "../harness/models-server";
import { startLocalTextServer } from "../harness/local-text-server";
import { findSecrets, serverKeyPattern } from "../harness/secret-scan";
import { waitFor } from "../harness/wait-for";
import { activateWisp, resetWisp, setBaseUrl, wispExtensionId } from "./support/wisp-extension";
import { alive } from "../harness/marked-processes";

type Running = Extract<LocalServerState, { kind: "running" }>;

/** First start generates the default models into the extension's storage: slow on a busy machine. */
const firstStartMs = 240_000;

describe("The bundled local server, run by the extension (real VS Code)", function () {
  this.timeout(firstStartMs + 60_000);
  let api: WispApi;
  let baseUrl: string;
  let file: string | undefined;

  const running = (timeoutMs = 60_000) =>
    waitFor("the local server running", () => api.localServer(), (s) => s.kind === "running", timeoutMs) as Promise<Running>;
  const status = (wanted: string, timeoutMs = 30_000) => waitFor(`status ${wanted}`, () => api.statusBar(), (v) => v.state === wanted, timeoutMs);

  before(async () => {
    api = await activateWisp();
    await resetWisp();
    // A free port of its own: the default one may be taken on a shared machine.
    baseUrl = `http://127.0.0.1:${await freePort()}/v1`;
    await setBaseUrl(baseUrl);
    await setAutoStart(true);
  });
  afterEach(async () => {
    if (file === undefined) return;
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
    rmSync(file, { force: true });
    file = undefined;
  });
  after(async () => {
    // Off first: with the default base URL back, auto-start would start one there.
    await setAutoStart(false);
    await vscode.commands.executeCommand("wisp.stopLocalServer");
    await resetWisp();
  });

  it("starts by itself where nothing answers, with a key of its own kept only in the secret store, and ghost text comes from it", async () => {
    const server = await running(firstStartMs);
    await status("ready");
    assert.equal(await api.apiKeySource(), "secret", "the key came from the secret store");
    const extensionPath = vscode.extensions.getExtension(wispExtensionId)!.extensionPath;
    // The bundled server, on VS Code's own runtime.
    assert.ok(commandLine(server.pid).includes(join(extensionPath, "dist/server/main.js")), commandLine(server.pid));
    assert.equal(realpathSync(readlinkSync(`/proc/${server.pid}/exe`)), realpathSync(process.execPath));
    assert.ok(api.logLines().some((line) => line.includes("created an API key for the local server")));
    await waitFor("the server's output in the Wisp log", () => api.logLines().some((line) => /server: .*listening on/.test(line)), Boolean);

    const since = api.completionOutcomes().length;
    const shown = await ghostTextFor(["const x = ", "\nlet y = ", "\nreturn "]);
    assert.ok(fromServer(shown.source), `shown from ${shown.source}`);
    assert.ok(api.completionOutcomes().length > since);
    // The server's access log comes through its output, after the answer's last bytes: waited for.
    await waitFor("the request in the bundled server's log", () => api.logLines().some((line) => /server: POST \/v1\/completions 200/.test(line)), Boolean);

    // The key lives in SecretStorage only: not in settings, logs, the extension's storage or the workspace.
    const userDataDir = process.env.WISP_TEST_USER_DATA_DIR!;
    const keysFile = join(userDataDir, "User/globalStorage/wisp.wisp/server/keys.json");
    assert.ok(existsSync(keysFile), "the server's key store is in the extension's storage");
    assert.match(readFileSync(keysFile, "utf8"), /"hash"/);
    const roots = [userDataDir, process.env.WISP_TEST_WORKSPACE!];
    assert.deepEqual(findSecrets(roots, { pattern: serverKeyPattern }), []);
    // The scan does find a key of that shape where one is written.
    const planted = join(process.env.WISP_TEST_WORKSPACE!, "planted.txt");
    writeFileSync(planted, `key: wisp-${"x".repeat(43)}\n`);
    try {
      assert.deepEqual(findSecrets(roots, { pattern: serverKeyPattern }).map((f) => f.file), [planted]);
    } finally {
      rmSync(planted);
    }
    assert.deepEqual(api.logLines().filter((line) => serverKeyPattern.test(line)), []);
  });

  it("Wisp: Stop Local Server stops it for good, Wisp: Start Local Server starts it again", async () => {
    const before = await running();
    await vscode.commands.executeCommand("wisp.stopLocalServer");
    assert.equal(api.localServer().kind, "stopped");
    await waitFor("the process gone", () => alive(before.pid), (isAlive) => !isAlive);
    await status("unreachable");
    // The next connection checks find nothing there: auto-start leaves a server stopped on purpose alone.
    await vscode.commands.executeCommand("wisp.checkConnection");
    await api.autoStartSettled();
    assert.equal(api.localServer().kind, "stopped");

    assert.equal(await vscode.commands.executeCommand("wisp.startLocalServer"), "started");
    const after = await running();
    assert.notEqual(after.pid, before.pid);
    await status("ready");
  });

  it("Wisp: Open Web Console opens the bundled server's console logged in, with the admin token from the extension's storage", async () => {
    await running();
    const opened = (await vscode.commands.executeCommand("wisp.openWebConsole")) as { origin: string; loggedIn: boolean } | undefined;
    assert.ok(opened, `the console opened: ${api.logLines().slice(-3).join(" | ")}`);
    assert.equal(opened.origin, baseUrl.replace(/\/v1$/, ""));
    assert.equal(opened.loggedIn, true);
    const token = readFileSync(join(process.env.WISP_TEST_USER_DATA_DIR!, "User/globalStorage/wisp.wisp/server/admin-token"), "utf8").trim();
    assert.deepEqual(api.logLines().filter((line) => line.includes(token)), [], "the admin token is not logged");
  });

  it("a server killed from outside is restarted, and the status bar says so", async () => {
    const before = await running();
    process.kill(before.pid, "SIGKILL");
    const restarting = await waitFor("the restart in the status bar", () => api.statusBar(), (v) => v.state === "starting", 10_000);
    assert.match(restarting.text, /restarting server/);
    assert.match(restarting.tooltip, /the local server was killed \(SIGKILL\); restarting \(1 of 3\)/);
    const after = await running();
    assert.notEqual(after.pid, before.pid);
    assert.equal(after.restarts, 1);
    const view = await status("ready");
    assert.match(view.tooltip, /Local server: running on port \d+ \(pid \d+\); restarted once, last after it was killed \(SIGKILL\)/);
    assert.ok(api.logLines().some((line) => line.includes("local server was killed (SIGKILL)")));
  });

  it("a team server's key and the local server's own are both kept: switching from one to the other and back, each gets its own", async () => {
    await running();
    await status("ready");
    const team = await startModelsServer({ key: "sk-team-server", models: ["team-model"] });
    try {
      await setBaseUrl(team.baseUrl);
      await vscode.commands.executeCommand("wisp.setApiKey", "sk-team-server");
      await waitFor("the team server asked with its key", () => team.authorizations, (all) => all.includes("Bearer sk-team-server"));
      await status("ready");
      // Back home: the local server is started again, with the key it made for itself, not the team's.
      await setBaseUrl(baseUrl);
      await running();
      await status("ready");
      assert.ok(!api.logLines().some((line) => line.includes("did not accept the API key")), "the local server's key was still there");
      const asked = team.authorizations.length;
      await setBaseUrl(team.baseUrl);
      // The status may still say ready from the local server: the team server's own check is waited for.
      // (Requests without a key are the auto-start's look for a Wisp server at a local address.)
      const keyed = () => team.authorizations.slice(asked).filter((a) => a !== undefined);
      await waitFor("the team server asked again with a key", () => keyed().length, (n) => n > 0);
      await status("ready");
      assert.ok(keyed().every((a) => a === "Bearer sk-team-server"), `the team server got its key back (${keyed().join(", ")})`);
      assert.ok(team.authorizations.every((a) => a === undefined || a === "Bearer sk-team-server"), `the team server never got another key (${team.authorizations.length} requests)`);
    } finally {
      await setBaseUrl(baseUrl);
      await team.close();
    }
    await running();
  });

  it("wisp.baseUrl switched to a remote server while the local one restarts: it is stopped, not started again to fail there", async () => {
    const before = await running();
    process.kill(before.pid, "SIGKILL");
    await waitFor("the restart", () => api.localServer(), (s) => s.kind === "restarting", 10_000);
    await setBaseUrl("https://api.example.invalid/v1");
    try {
      await waitFor("the local server stopped", () => api.localServer(), (s) => s.kind === "stopped" || s.kind === "failed", 30_000);
      assert.equal(api.localServer().kind, "stopped", JSON.stringify(api.localServer()));
      assert.ok(api.logLines().some((line) => line.includes("wisp.baseUrl no longer points at it")));
    } finally {
      await setBaseUrl(baseUrl);
    }
    // Back at its address, auto-start starts it again.
    await running();
  });

  it("a port held by another program is reported as such", async () => {
    const other = await listenNotWisp();
    try {
      const port = (other.address() as AddressInfo).port;
      await setBaseUrl(`http://127.0.0.1:${port}/v1`);
      await waitFor("the server for the old base URL stopped", () => api.localServer().kind, (kind) => kind === "stopped");
      await vscode.commands.executeCommand("wisp.startLocalServer");
      const state = api.localServer();
      assert.equal(state.kind, "failed");
      const view = await status("error");
      assert.match(view.text, /server stopped/);
      assert.match(view.tooltip, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is in use by another program that is not a Wisp server`));
      assert.ok(api.logLines().some((line) => line.includes(`port ${port} on 127.0.0.1 is in use by another program`)));
    } finally {
      await new Promise((done) => other.close(done));
      await setBaseUrl(baseUrl);
    }
  });

  it("a Wisp server already answering at the base URL (another window's) is used, not started again", async () => {
    const other = await startLocalTextServer(vscode.extensions.getExtension(wispExtensionId)!.extensionPath);
    try {
      await setBaseUrl(other.baseUrl);
      assert.equal(await vscode.commands.executeCommand("wisp.startLocalServer"), "already-running");
      assert.equal(api.localServer().kind, "stopped");
      assert.ok(api.logLines().some((line) => line.includes(`a Wisp server already answers at ${other.baseUrl.replace(/\/v1$/, "")}`)));
      assert.ok(!api.logLines().some((line) => line.includes("this Wisp is")), "the same version: nothing to say");
    } finally {
      await setBaseUrl(baseUrl);
      await other.stop();
    }
  });

  it("a Wisp server of another version already answering (an earlier Wisp's, after an update) is used, and the user is told which versions, once", async () => {
    const own = String(vscode.extensions.getExtension(wispExtensionId)!.packageJSON.version);
    const older = createServer((request, response) => {
      if (request.url === "/health") response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ status: "ok", version: "0.0.1" }));
      else response.writeHead(404).end();
    });
    await new Promise<void>((done) => older.listen(0, "127.0.0.1", done));
    const origin = `http://127.0.0.1:${(older.address() as AddressInfo).port}`;
    const said = () => api.logLines().filter((line) => line.includes(`the Wisp server at ${origin} runs version 0.0.1 (this Wisp is ${own})`));
    try {
      await setBaseUrl(`${origin}/v1`);
      await waitFor("the versions said", said, (lines) => lines.length === 1);
      assert.equal(await vscode.commands.executeCommand("wisp.startLocalServer"), "already-running");
      assert.equal(api.localServer().kind, "stopped", "this window started none");
      assert.equal(said().length, 1, "said once in the window");
    } finally {
      await setBaseUrl(baseUrl);
      await new Promise((done) => older.close(done));
    }
  });

  it("a server another window stopped with Wisp: Stop Local Server is not started again here while that window is open; Start Local Server here starts it", async () => {
    await running(firstStartMs);
    // Window A: its extension host (a process of its own) and the server it runs, which this window uses.
    const hostA = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore", env: { ...process.env, ELECTRON_RUN_AS_NODE: "1" } });
    const other = await startLocalTextServer(vscode.extensions.getExtension(wispExtensionId)!.extensionPath);
    let stopped: Promise<void> | undefined;
    const stopOther = () => (stopped ??= other.stop());
    try {
      await setBaseUrl(other.baseUrl);
      await waitFor("this window's own server stopped (the base URL moved)", () => api.localServer().kind, (kind) => kind === "stopped");
      await vscode.commands.executeCommand("wisp.checkConnection");
      await api.autoStartSettled();
      assert.equal(api.localServer().kind, "stopped", "window A's server is used");
      // Wisp: Stop Local Server in window A, as that window's LocalServer says it to the others.
      new StopMarker(join(process.env.WISP_TEST_USER_DATA_DIR!, "User/globalStorage/wisp.wisp/local-server-stopped.json"), hostA.pid).mark();
      await stopOther();
      await vscode.commands.executeCommand("wisp.checkConnection");
      await status("unreachable");
      await api.autoStartSettled();
      assert.equal(api.localServer().kind, "stopped", "auto-start left it stopped");
      assert.ok(api.logLines().some((line) => line.includes(`Wisp: Stop Local Server stopped it in another window (extension host pid ${hostA.pid})`)));

      assert.equal(await vscode.commands.executeCommand("wisp.startLocalServer"), "started");
      await running();
      await status("ready");
    } finally {
      hostA.kill();
      await stopOther();
      await setBaseUrl(baseUrl);
    }
  });

  it("a custom command that does not exist is named in the error", async () => {
    await vscode.commands.executeCommand("wisp.stopLocalServer");
    await vscode.workspace.getConfiguration("wisp").update("localServer.command", "/nonexistent/wisp-server", vscode.ConfigurationTarget.Global);
    try {
      await vscode.commands.executeCommand("wisp.startLocalServer");
      const state = api.localServer();
      assert.equal(state.kind, "failed");
      assert.match(state.kind === "failed" ? state.message : "", /"\/nonexistent\/wisp-server" was not found/);
    } finally {
      await vscode.workspace.getConfiguration("wisp").update("localServer.command", undefined, vscode.ConfigurationTarget.Global);
    }
  });

  /** Types each start on a new line of a plain-text file until one gets ghost text (the tiny model's answers are random). */
  async function ghostTextFor(starts: string[]): Promise<Extract<ReturnType<WispApi["completionOutcomes"]>[number], { kind: "shown" }>> {
    file = join(process.env.WISP_TEST_WORKSPACE!, "local-server.txt");
    writeFileSync(file, "export function add(a: number, b: number): number {\n  return a + b;\n}\n");
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
    const end = editor.document.positionAt(editor.document.getText().length);
    editor.selection = new vscode.Selection(end, end);
    for (const start of starts) {
      const since = api.completionOutcomes().length;
      for (const ch of start) await vscode.commands.executeCommand("type", { text: ch });
      // Ghost text the server answered: a suggestion shown while typing on through it is no answer of its own.
      const answered = (o: ReturnType<WispApi["completionOutcomes"]>[number]) => (o.kind === "shown" && fromServer(o.source)) || o.kind === "empty";
      const outcome = await waitFor("an answer", () => api.completionOutcomes().slice(since).find(answered), (o) => o !== undefined, 30_000).catch(() => undefined);
      if (outcome?.kind === "shown") return outcome;
    }
    // What the extension saw, for a failure on a machine far away.
    throw new Error(`no ghost text for any of ${JSON.stringify(starts)}; outcomes ${JSON.stringify(api.completionOutcomes())}; Wisp log:\n${api.logLines().slice(-40).join("\n")}`);
  }
});

async function setAutoStart(on: boolean): Promise<void> {
  await vscode.workspace.getConfiguration("wisp").update("localServer.autoStart", on, vscode.ConfigurationTarget.Global);
}

function commandLine(pid: number): string {
  return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
}

/** An HTTP server that is not Wisp's: every path is a 404. */
async function listenNotWisp(): Promise<Server> {
  const server = createServer((_, response) => response.writeHead(404).end("not here"));
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return server;
}
