import * as assert from "node:assert/strict";
import { readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { freePort } from "../harness/free-port";
import { findSecrets, serverKeyPattern } from "../harness/secret-scan";
import { TempDirs } from "../harness/temp-dirs";
import { ensureToolchain, repoRoot, type Toolchain } from "../harness/toolchain";
import { ensureVsix } from "../harness/vsix";
import { waitFor } from "../harness/wait-for";
import { WorkbenchPage } from "../harness/workbench-page";
import { startWorkbench, type WorkbenchSession } from "../harness/workbench-session";
import { screenshotOnFailure } from "./support/screenshot-on-failure";
import { assertWispRaisedNothing } from "./support/stop-workbench";
import { alive } from "../harness/marked-processes";

const statusId = "wisp.wisp.wisp.status";
const fileText = "export function add(a: number, b: number): number {\n  return a + b;\n}\n";

describe("Zero config: the installed .vsix runs its own server (code-server + Chromium, fresh profile)", function () {
  this.timeout(600_000);
  const temp = new TempDirs();
  let toolchain: Toolchain;
  let session: WorkbenchSession | undefined;
  let ui: WorkbenchPage;
  let port: number;
  let folder: string;
  let editorOutput = "";

  before(async () => {
    toolchain = ensureToolchain();
    const vsix = ensureVsix();
    folder = temp.make("e2e-zero");
    writeFileSync(join(folder, "notes.txt"), fileText);
    // The only setting: a port of its own, as the default one may be taken on a shared machine.
    // No key: the extension makes one.
    port = await freePort();
    session = await startWorkbench({
      toolchain,
      vsixes: [vsix],
      folder,
      settings: { "wisp.baseUrl": `http://127.0.0.1:${port}/v1` },
      tempPrefix: "e2e-zero-",
      onOutput: (text) => (editorOutput += text),
    });
    ui = new WorkbenchPage(session.page!);
    await ui.waitReady();
  });
  after(async () => {
    await session?.stop();
    temp.removeAll();
    assertWispRaisedNothing(session);
  });
  screenshotOnFailure(() => session?.page, () => session?.userDataDir);

  it("becomes ready with no other step: the extension starts the bundled server and makes its key", async () => {
    // The first start generates the default models into the extension's storage.
    const text = await waitFor("Wisp ready", () => ui.statusText(statusId).catch(() => ""), (t) => /^Wisp( \d+ms)? · tiny models$/.test(t), 300_000);
    assert.equal(text, "Wisp · tiny models", "ready, and honest that only the embedded models are there");
  });

  it("shows ghost text from it as the user types", async () => {
    await ui.openFile("notes.txt");
    await ui.typeAtEnd("const x = ");
    let ghost = await ui.waitForGhostText(30_000).catch(() => "");
    // The tiny model's answers are random text: some lines get none that can be shown.
    for (const start of ["let y = ", "answer: ", "content = "]) {
      if (ghost.trim() !== "") break;
      await ui.page.keyboard.press("Escape");
      await ui.page.keyboard.press("Enter");
      await ui.page.keyboard.type(start);
      ghost = await ui.waitForGhostText(30_000).catch(() => "");
    }
    assert.notEqual(ghost.trim(), "", "ghost text shown");
    await waitFor("the latency in the status bar", () => ui.statusText(statusId).catch(() => ""), (t) => /^Wisp \d+ms · tiny models$/.test(t), 30_000);
  });

  it("the server is the installed extension's, on VS Code's own Node", () => {
    const pid = serverPid(port);
    assert.ok(pid, "a wisp-server on the port");
    const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    const script = command.find((arg) => arg.endsWith("dist/server/main.js"));
    assert.ok(script && !script.startsWith(repoRoot), `run from the installed extension: ${script}`);
    assert.equal(realpathSync(`/proc/${pid}/exe`), realpathSync(join(toolchain.nodeBin, "node")));
  });

  it("keeps the key out of settings, logs, the extension's storage and the workspace", () => {
    const found = findSecrets([session!.userDataDir, folder], { pattern: serverKeyPattern });
    assert.deepEqual(found, []);
    assert.ok(!serverKeyPattern.test(editorOutput), "not in code-server's output");
    const storage = join(session!.userDataDir, "User/globalStorage/wisp.wisp");
    assert.deepEqual(readdirSync(storage).sort(), ["models", "server"]);
    assert.match(readFileSync(join(storage, "server/keys.json"), "utf8"), /"hash"/);
  });

  it("a crashed extension host takes its server along", async () => {
    const pid = serverPid(port)!;
    // The server's parent is the extension host; kill it as a crash would, giving it no chance to stop the server.
    const host = Number(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")[1]);
    assert.match(readFileSync(`/proc/${host}/cmdline`, "utf8"), /extensionHost|bootstrap-fork|node/);
    process.kill(host, "SIGKILL");
    await waitFor("the server gone", () => alive(pid), (a) => !a, 15_000);
  });

  it("stops the server when VS Code stops", async () => {
    // The workbench starts a new extension host after a crash, and Wisp its server again.
    const pid = await waitFor("a server again", () => serverPid(port), (p) => p !== undefined, 120_000);
    assert.ok(pid);
    await session!.stop();
    session = undefined;
    await waitFor("the server gone", () => serverPid(port), (p) => p === undefined, 15_000);
  });
});

/** The wisp-server process listening on `port` (by its command line), if any. */
function serverPid(port: number): number | undefined {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      if (args.some((a) => a.endsWith("dist/server/main.js")) && args.includes("--port") && args[args.indexOf("--port") + 1] === String(port)) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}
