import * as assert from "node:assert/strict";
import { createWriteStream, type WriteStream } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { createApiKey, startLocalServer, type LocalServer } from "../../scripts/start/local-server";
import { launchChromium } from "../harness/browser";
import { freePort } from "../harness/free-port";
import { TempDirs } from "../harness/temp-dirs";
import { ensureToolchain, repoRoot } from "../harness/toolchain";
import { screenshotOnFailure } from "./support/screenshot-on-failure";

const KEY_ENV = "WISP_E2E_UPSTREAM_KEY";

describe("the web console of a wisp-server in front of an upstream wisp-server, in Chromium", function () {
  this.timeout(240_000);
  const temp = new TempDirs();
  const logs: WriteStream[] = [];
  let upstream: LocalServer;
  let gateway: LocalServer;
  let upstreamKey: string;
  let loginUrl: string;
  let browser: Browser;
  let page: Page;

  const start = async (name: string, extraArgs: string[] = [], onStartupLine?: (line: string) => void) => {
    const log = createWriteStream(join(temp.make(`${name}-log`), "server.log"));
    logs.push(log);
    const dataDir = temp.make(`${name}-data`);
    const key = createApiKey(repoRoot, dataDir, "e2e");
    const server = await startLocalServer({ root: repoRoot, port: await freePort(), modelsDir: temp.make(`${name}-models`), dataDir, log, extraArgs, onStartupLine });
    return { server, key };
  };

  before(async () => {
    const toolchain = ensureToolchain();
    ({ server: upstream, key: upstreamKey } = await start("upstream"));
    // The upstream's key reaches the gateway only through its environment.
    process.env[KEY_ENV] = upstreamKey;
    const lines: string[] = [];
    ({ server: gateway } = await start("gateway", ["--upstream", `gpu-1=${upstream.baseUrl},key-env=${KEY_ENV}`], (line) => lines.push(line)));
    delete process.env[KEY_ENV];
    loginUrl = lines.map((l) => /^console: (\S+)$/.exec(l)?.[1]).find(Boolean)!;
    browser = await launchChromium(toolchain);
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(loginUrl);
    await page.locator("header h1", { hasText: "Wisp console" }).waitFor();
  });
  after(async () => {
    await browser?.close();
    await gateway?.process.stop();
    await upstream?.process.stop();
    await Promise.all(logs.map((log) => new Promise<void>((done) => log.end(done))));
    temp.removeAll();
  });
  screenshotOnFailure(() => page);

  it("shows the upstream on the Models page with its health, latency and models, and never its key", async () => {
    await page.goto(`${loginUrl.replace(/\/login\?.*$/, "")}/#models`);
    const row = page.locator("tr[data-upstream='gpu-1']");
    await row.locator("td", { hasText: "healthy" }).waitFor();
    const cells = await row.locator("td").allInnerTexts();
    assert.equal(cells[1], upstream.baseUrl);
    assert.match(cells[3]!, /^\d+(\.\d)? ms$/);
    assert.equal(cells[5], "wisp-tiny-diffusion, wisp-tiny");
    await page.locator("table[aria-label='Local models'] td", { hasText: "wisp-tiny" }).first().waitFor();
    assert.ok(!(await page.content()).includes(upstreamKey), "the upstream's key is on the page");
  });

  it("chats in the playground with the upstream's model (named gpu-1/… beside the local one of the same name)", async () => {
    await page.goto(`${loginUrl.replace(/\/login\?.*$/, "")}/#chat`);
    await page.locator("select[name=model] option", { hasText: "gpu-1/wisp-tiny" }).waitFor({ state: "attached" });
    await page.selectOption("select[name=model]", "gpu-1/wisp-tiny");
    await page.fill("input[name=temperature]", "0");
    await page.fill("input[name=max_tokens]", "12");
    await page.fill("textarea[name=message]", "Hello over there.");
    const sent = page.waitForRequest((r) => r.url().endsWith("/v1/chat/completions"));
    await page.click("button:text-is('Send')");
    const body = (await sent).postDataJSON() as Record<string, unknown>;
    assert.equal(body.model, "gpu-1/wisp-tiny");
    const status = page.locator(".conversation .status", { hasText: "total" });
    await status.waitFor({ timeout: 60_000 });
    assert.match(await status.innerText(), /completion 12 · total \d+ tokens/);
    const shown = await page.locator(".message.assistant .content").last().innerText();
    // The playground's own request, straight to the upstream under the model's own name, gives the same text.
    const direct = await fetch(`${upstream.baseUrl}/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${upstreamKey}`, "content-type": "application/json" },
      body: JSON.stringify({ ...body, model: "wisp-tiny", stream: false, stream_options: undefined }),
    });
    const expected = ((await direct.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content;
    assert.equal(shown.trim(), expected.trim());
  });
});
