import * as assert from "node:assert/strict";
import { createWriteStream, readFileSync, writeFileSync, type WriteStream } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { startLocalServer, type LocalServer } from "../../scripts/start/local-server";
import { freePort } from "../harness/free-port";
import { TempDirs } from "../harness/temp-dirs";
import { ensureToolchain, repoRoot } from "../harness/toolchain";
import { ensureVsix } from "../harness/vsix";
import { waitFor } from "../harness/wait-for";
import { WorkbenchPage } from "../harness/workbench-page";
import { startWorkbench, userSettingsPath, type WorkbenchSession } from "../harness/workbench-session";
import { screenshotOnFailure } from "./support/screenshot-on-failure";
import { assertWispRaisedNothing } from "./support/stop-workbench";

describe("Wisp: Open Web Console, from the real VS Code UI", function () {
  this.timeout(300_000);
  const temp = new TempDirs();
  let server: LocalServer;
  let log: WriteStream;
  let dataDir: string;
  let session: WorkbenchSession | undefined;
  let ui: WorkbenchPage;
  let opened: Page | undefined;

  before(async () => {
    const toolchain = ensureToolchain();
    const vsix = ensureVsix();
    dataDir = temp.make("web-console-data");
    log = createWriteStream(join(temp.make("web-console-log"), "server.log"));
    server = await startLocalServer({ root: repoRoot, port: await freePort(), modelsDir: temp.make("web-console-models"), dataDir, log });
    const folder = temp.make("web-console-workspace");
    writeFileSync(join(folder, "notes.md"), "# notes\n");
    // The extension finds the admin token where the server keeps it: WISP_DATA_DIR.
    session = await startWorkbench({ toolchain, vsixes: [vsix], folder, settings: { "wisp.baseUrl": server.baseUrl }, env: { WISP_DATA_DIR: dataDir } });
    ui = new WorkbenchPage(session.page!);
    await ui.waitReady();
    // The palette lists the extension's commands once it is running: its status bar item says so.
    await waitFor("the Wisp status bar item", () => ui.statusText("wisp.wisp.wisp.status").catch(() => ""), (text) => text.startsWith("Wisp"), 60_000);
  });
  after(async () => {
    await opened?.close().catch(() => undefined);
    await session?.stop();
    await server?.process.stop();
    await new Promise<void>((done) => (log ? log.end(done) : done()));
    temp.removeAll();
    assertWispRaisedNothing(session);
  });
  screenshotOnFailure(() => opened ?? session?.page, () => session?.userDataDir);

  it("opens the console in the browser, logged in, without the token in the address, settings or log", async () => {
    const origin = server.baseUrl.replace(/\/v1$/, "");
    const token = readFileSync(join(dataDir, "admin-token"), "utf8").trim();
    const popup = session!.page!.context().waitForEvent("page", { timeout: 60_000 });
    await ui.runCommand("Wisp: Open Web Console");
    opened = await popup;
    await opened.locator("header h1", { hasText: "Wisp console" }).waitFor({ timeout: 60_000 });
    await opened.locator("table.keys td", { hasText: "default" }).first().waitFor();
    // code-server forwards this machine's ports through its own /proxy/PORT/ (as remote editors
    // do): the console works at either address.
    const port = new URL(origin).port;
    const url = opened.url();
    assert.ok(url === `${origin}/` || url.endsWith(`/proxy/${port}/`), url);
    assert.ok(!url.includes(token) && !url.includes("/login"), "the login link is gone from the address");
    assert.ok(!readFileSync(userSettingsPath(session!.userDataDir), "utf8").includes(token), "settings.json does not hold the token");
    await ui.runCommand("Wisp: Show Logs");
    const panel = session!.page!.locator(".part.panel", { hasText: "opened the web console" });
    await panel.waitFor({ timeout: 30_000 });
    assert.ok(!(await panel.innerText()).includes(token), "the log does not hold the token");
  });
});
