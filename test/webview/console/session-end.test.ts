import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "../../harness/browser";
import { readToolchain, repoRoot } from "../../harness/toolchain";
import { startServer, TEXT_MODEL, type TestServer } from "../../server/server-fixture";
import { ConsoleClient } from "../../server/support/console-client";

describe("the console playground once its session has ended (Chromium, real server)", function () {
  this.timeout(120_000);
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  before(async () => {
    // The page is the console's bundle: built when a source is newer (as npm run test:server does).
    execFileSync(process.execPath, ["scripts/build-console.mjs", "--if-stale"], { cwd: repoRoot, stdio: "ignore" });
    server = await startServer();
    browser = await launchChromium(readToolchain());
    page = await browser.newPage();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it("Send goes to the login page instead of saying the API key is invalid", async () => {
    await page.goto(`${server.origin}/login?token=${encodeURIComponent(server.adminToken)}`);
    await page.goto(`${server.origin}/#chat`);
    await page.locator("select[name=model] option", { hasText: TEXT_MODEL }).waitFor({ state: "attached" });
    // The session ends while the page is open (Log out in another tab; a restart or idle hours alike).
    const other = new ConsoleClient(server.origin);
    other.cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    await other.connect();
    assert.equal((await other.request("POST", "/console/api/logout")).status, 204);
    await page.fill("textarea[name=message]", "Hello?");
    await page.click("button:text-is('Send')");
    await page.waitForURL(`${server.origin}/login`);
    await page.locator("form.login-card input#token").waitFor();
  });
});
