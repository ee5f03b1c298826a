import assert from "node:assert/strict";
import { join } from "node:path";
import { openWebviewPage, type WebviewPage } from "./support/webview-page";

interface Shown {
  text: string;
  blocks: (string | null)[][];
  links: { text: string | null; href: string | null; path: string | null; line: string | null }[];
  asked: unknown[];
}
type Page = { streamed(pieces: readonly string[]): Shown; whole(text: string): Shown; tokens(text: string, size?: number): Shown };

describe("chat answers streamed and reloaded (webview, Chromium)", function () {
  this.timeout(60_000);
  let web: WebviewPage;
  before(async () => (web = await openWebviewPage(join(import.meta.dirname, "pages/markdown-page.ts"))));
  after(() => web?.close());

  const streamed = (pieces: readonly string[]) => web.page.evaluate((p) => (window as unknown as { markdownPage: Page }).markdownPage.streamed(p), pieces);
  const whole = (text: string) => web.page.evaluate((t) => (window as unknown as { markdownPage: Page }).markdownPage.whole(t), text);
  const tokens = (text: string) => web.page.evaluate((t) => (window as unknown as { markdownPage: Page }).markdownPage.tokens(t), text);

  it("a block after 'Change … in `src/cart.ts`:' applies to src/cart.ts whether it streamed in or was shown at once", async () => {
    const answer = "Change the total in `src/cart.ts`:\n\n```ts\nexport const total = 2;\n```\n\nDone.";
    const reloaded = await whole(answer);
    assert.deepEqual(reloaded.blocks, [["Open src/cart.ts", "Copy code", "Insert at Cursor", "Apply to src/cart.ts (review the change)", "Open in New File"]]);
    for (const pieces of [[answer.slice(0, answer.indexOf("```") + 6), answer.slice(answer.indexOf("```") + 6)], [answer.slice(0, 37), answer.slice(37)]]) {
      const live = await streamed(pieces);
      assert.deepEqual(live.blocks, reloaded.blocks, JSON.stringify(pieces));
      assert.deepEqual(live.asked, reloaded.asked);
    }
    assert.deepEqual((await tokens(answer)).blocks, reloaded.blocks);
  });

  it("a reference-style link defined at the end of a streamed answer is a link, as after a reload", async () => {
    const answer = "See [the docs][1] for the details.\n\nThen run the tests.\n\n[1]: https://example.com/docs\n";
    const reloaded = await whole(answer);
    assert.deepEqual(reloaded.links, [{ text: "the docs", href: "https://example.com/docs", path: null, line: null }]);
    const live = await tokens(answer);
    assert.deepEqual(live.links, reloaded.links);
    assert.equal(live.text, reloaded.text);
  });
});
