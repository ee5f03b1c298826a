import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "../../harness/browser";
import { readToolchain, repoRoot } from "../../harness/toolchain";
import { startServer, TEXT_MODEL, type TestServer } from "../../server/server-fixture";
import { ConsoleClient } from "../../server/support/console-client";

describe("the console's page in Chromium, on a real server", function () {
  this.timeout(120_000);
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  before(async () => {
    // The page is the console's bundle: built when a source is newer (as npm run test:server does).
    execFileSync(process.execPath, ["scripts/build-console.mjs", "--if-stale"], { cwd: repoRoot, stdio: "ignore" });
    server = await startServer();
    browser = await launchChromium(readToolchain());
  });
  beforeEach(async () => {
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${server.origin}/login?token=${encodeURIComponent(server.adminToken)}`);
  });
  afterEach(() => page.close());
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const sidewaysOverflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

  it("fits a key with a long name on a narrow window: its created notice and its Usage legend", async () => {
    await page.setViewportSize({ width: 380, height: 800 });
    // Underscores, no spaces or hyphens: nowhere for the line to break.
    const name = "ci_github_actions_deploy_production_eu_west_1_runner_pool_number_7".slice(0, 64);
    await page.goto(`${server.origin}/#keys`);
    await page.fill("#key-name", name);
    await page.click("text=Create key");
    await page.locator(".secret-once", { hasText: name }).waitFor();
    assert.ok((await sidewaysOverflow()) <= 0, `the created notice is ${await sidewaysOverflow()}px wider than the window`);
    const secret = (await page.locator("code.secret").innerText()).trim();
    assert.equal((await fetch(`${server.baseURL}/models`, { headers: { authorization: `Bearer ${secret}` } })).status, 200);
    await page.goto(`${server.origin}/#usage`);
    await page.locator(".legend li", { hasText: name }).waitFor();
    assert.ok((await sidewaysOverflow()) <= 0, `the Usage page is ${await sidewaysOverflow()}px wider than the window`);
  });

  it("a double click on Create key (or Enter pressed twice) makes one key, the one whose secret is shown", async () => {
    await page.goto(`${server.origin}/#keys`);
    await page.fill("#key-name", "laptop");
    await page.dblclick("text=Create key");
    await page.locator(".secret-once", { hasText: "laptop" }).waitFor();
    await page.fill("#key-name", "ci-runner");
    await page.press("#key-name", "Enter");
    await page.press("#key-name", "Enter");
    await page.locator(".secret-once", { hasText: "ci-runner" }).waitFor();
    // Both requests are answered before the list shows the last key made.
    await page.locator("tr[data-key-id]", { hasText: "ci-runner" }).first().waitFor();
    await page.waitForFunction(() => !document.querySelector<HTMLButtonElement>("form[aria-label='Create a key'] button")!.disabled);
    const named = async (name: string) => (await server.deps.keys.list()).filter((k) => k.name === name && !k.revoked).length;
    assert.equal(await named("laptop"), 1, "keys named laptop");
    assert.equal(await named("ci-runner"), 1, "keys named ci-runner");
    const secret = (await page.locator("code.secret").innerText()).trim();
    assert.equal((await fetch(`${server.baseURL}/models`, { headers: { authorization: `Bearer ${secret}` } })).status, 200);
  });

  it("once the session has ended, the playground's Send goes to the login page instead of saying the API key is invalid", async () => {
    await page.goto(`${server.origin}/#chat`);
    await page.locator("select[name=model] option", { hasText: TEXT_MODEL }).waitFor({ state: "attached" });
    // The session ends while the page is open (Log out in another tab; a restart or idle hours alike).
    const other = new ConsoleClient(server.origin);
    other.cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    await other.connect();
    assert.equal((await other.request("POST", "/console/api/logout")).status, 204);
    await page.fill("textarea[name=message]", "Hello?");
    await page.click("button:text-is('Send')");
    await page.waitForURL(/\/login\?/);
    await page.locator("form.login-card input#token").waitFor();
  });

  it("a page whose session ended says so at the login page, and logging in again goes back to the view it was on", async () => {
    await page.goto(`${server.origin}/#usage`);
    await page.locator("table.usage tbody tr").first().waitFor();
    const other = new ConsoleClient(server.origin);
    other.cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    await other.connect();
    assert.equal((await other.request("POST", "/console/api/logout")).status, 204);
    await page.click("button:text-is('Refresh')");
    await page.locator("form.login-card input#token").waitFor();
    assert.match(await page.locator(".login-error").innerText(), /session has ended.*log in again/);
    await page.fill("#token", server.adminToken);
    await page.click("button:text-is('Log in')");
    await page.waitForURL(`${server.origin}/#usage`);
    await page.locator("section[aria-label=Usage] table.usage tbody tr").first().waitFor();
    assert.equal(await page.locator("nav a[aria-current=page]").innerText(), "Usage");
  });
});
