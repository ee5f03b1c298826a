import assert from "node:assert/strict";
import { join } from "node:path";
import type { Notice } from "../../../src/core/chat/protocol";
import { openWebviewPage, type WebviewPage } from "../support/webview-page";

type Page = { start(): void; show(notice?: Notice): string | undefined };

describe("chat notices across reloads and restarts (webview, Chromium)", function () {
  this.timeout(60_000);
  let web: WebviewPage;
  before(async () => (web = await openWebviewPage(join(import.meta.dirname, "pages/chat-page.ts"))));
  after(() => web?.close());

  /** Opens the chat page with the page state VS Code kept from before (it survives restarts). */
  const start = () => web.page.evaluate(() => (window as unknown as { chatPage: Page }).chatPage.start());
  const show = (notice: Notice) => web.page.evaluate((n) => (window as unknown as { chatPage: Page }).chatPage.show(n), notice);

  it("after VS Code restarts (the host counts notices from 1 again), its first notices show; a reload does not show a seen one again", async () => {
    await start();
    assert.equal(await show({ id: 1, session: "first", text: "Copied." }), "Copied.");
    assert.equal(await show({ id: 2, session: "first", text: "Inserted at the cursor." }), "Inserted at the cursor.");
    assert.equal(await show({ id: 3, session: "first", text: "Copied." }), "Copied.", "a repeated notice shows again");

    // Restart: the page state is kept, the new activation's notices start at 1.
    await start();
    assert.equal(await show({ id: 1, session: "second", text: "src/x.ts is not a file of this workspace." }), "src/x.ts is not a file of this workspace.");

    // The view reloads (same activation): the notice it already showed stays hidden.
    await start();
    assert.equal(await show({ id: 1, session: "second", text: "src/x.ts is not a file of this workspace." }), undefined);
    assert.equal(await show({ id: 2, session: "second", text: "Copied." }), "Copied.");
  });
});
