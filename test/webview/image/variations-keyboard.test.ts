import assert from "node:assert/strict";
import { join } from "node:path";
import type { ToVariationsView } from "../../../src/core/image/variations-protocol";
import { openWebviewPage, type WebviewPage } from "../support/webview-page";

const pixel = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

describe("image variations preview from the keyboard (webview, Chromium)", function () {
  this.timeout(60_000);
  let web: WebviewPage;
  before(async () => (web = await openWebviewPage(join(import.meta.dirname, "pages/variations-page.ts"))));
  after(() => web?.close());

  const send = (message: ToVariationsView) => web.page.evaluate((m) => window.dispatchEvent(new MessageEvent("message", { data: m })), message);
  const focused = () => web.page.evaluate(() => {
    const node = document.activeElement as HTMLElement | null;
    return node === null || node === document.body ? "nothing" : `${node.tagName.toLowerCase()} ${node.getAttribute("aria-label") ?? ""} ${node.textContent}`.trim();
  });

  it("each Save names its image, and Save pressed with Enter keeps the focus on it while it saves and after", async () => {
    await send({ type: "show", prompt: "a red fox", details: "2 images, 256x256", images: [{ index: 0, src: pixel, seed: 7 }, { index: 1, src: pixel, seed: 8 }] });
    const labels = await web.page.locator("button.variation-save").evaluateAll((nodes) => nodes.map((n) => n.getAttribute("aria-label") ?? n.textContent));
    assert.deepEqual(labels, ["Save image 1 (seed 7)", "Save image 2 (seed 8)"]);
    await web.page.focus("button.variation-save >> nth=1");
    await web.page.keyboard.press("Enter");
    assert.deepEqual(await web.page.evaluate(() => (window as unknown as { variationsPage: { posted(): unknown[] } }).variationsPage.posted().at(-1)), { type: "save", index: 1 });
    assert.equal(await focused(), "button Save image 2 (seed 8) Saving…", "while it saves");
    await web.page.keyboard.press("Enter");
    const saves = await web.page.evaluate(() => (window as unknown as { variationsPage: { posted(): { type: string }[] } }).variationsPage.posted().filter((m) => m.type === "save").length);
    assert.equal(saves, 1, "a second Enter while saving saves nothing more");
    await send({ type: "saved", index: 1, label: "images/fox.png" });
    assert.equal(await focused(), "button Save image 2 (seed 8) Save again");
  });
});
