import assert from "node:assert/strict";
import { join } from "node:path";
import { openWebviewPage, type WebviewPage } from "../support/webview-page";

describe("console playground image (Chromium)", function () {
  this.timeout(60_000);
  let web: WebviewPage;
  before(async () => (web = await openWebviewPage(join(import.meta.dirname, "pages/image-page.ts"))));
  after(() => web?.close());

  it("a Generate that fails takes the earlier image away: no image stands as the result of the prompt that failed", async () => {
    const { page } = web;
    await page.fill("textarea[name=prompt]", "a lighthouse at dusk");
    await page.click("button:text-is('Generate')");
    await page.locator(".image-result img").waitFor();
    assert.match(await page.locator(".image-result figcaption").innerText(), /seed 7/);
    await page.fill("textarea[name=prompt]", "a red bicycle");
    await page.click("button:text-is('Generate')");
    await page.locator("ul.errors li", { hasText: "the image model failed to load" }).waitFor();
    assert.equal(await page.locator(".image-result img").count(), 0, "the lighthouse still shows as the result");
  });

  it("Generate pressed from the keyboard keeps the focus: it is on Generate again when the request is over", async () => {
    const { page } = web;
    await page.focus("button:text-is('Generate')");
    await page.keyboard.press("Enter");
    // Generate is off while the request runs: the focus it had is lost.
    await page.waitForFunction(() => document.activeElement === document.body);
    await page.evaluate(() => (window as unknown as { consoleImage: { release(): void } }).consoleImage.release());
    await page.waitForFunction(() => !document.querySelector<HTMLButtonElement>("button[type=submit]")!.disabled);
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Generate");
  });
});
