import assert from "node:assert/strict";
import { join } from "node:path";
import type { CodeBlockAction } from "../../../src/webview/chat/code-blocks";
import { parseViewMessage } from "../../../src/core/chat/protocol";
import { findingsMarkdown } from "../../../src/core/review/review-prompt";
import { openWebviewPage, type WebviewPage } from "../support/webview-page";

interface Shown {
  text: string;
  blocks: (string | null)[][];
  links: { text: string | null; href: string | null; path: string | null; line: string | null }[];
  asked: ({ code: CodeBlockAction } | { open: { path: string; line?: number } })[];
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

  it("every button and file link asks for what the extension accepts (no line 0, no 70-character language)", async () => {
    const answer = ["Start at [the top](src/a.ts#L0), then [the total](src/cart.ts#L12).", "", "```" + "x".repeat(70), "print(1)", "```", ""].join("\n");
    for (const shown of [await whole(answer), await tokens(answer)]) {
      // As TurnView posts them to the extension.
      const messages = shown.asked.map((a) => ("code" in a ? { type: "codeAction", ...a.code } : { type: "openFile", ...a.open }));
      assert.deepEqual(
        messages.map((m) => parseViewMessage(m) !== undefined),
        messages.map(() => true),
        JSON.stringify(messages),
      );
      assert.deepEqual(messages.filter((m) => m.type === "openFile"), [{ type: "openFile", path: "src/cart.ts", line: 12 }]);
      assert.deepEqual(shown.blocks, [["Copy code", "Insert at Cursor", "Apply to the Editor (review the change)", "Open in New File"]]);
      assert.ok(shown.text.includes("Start at the top, then the total."), shown.text);
    }
  });

  it("a review's finding links open their files whatever the path holds: accents, CJK, spaces, #, %, brackets and parentheses", async () => {
    const paths = ["docs/café.md", "src/日本語/ファイル.ts", "src/my file.ts", "src/no\u00a0break.ts", "notes/C# tips.md", "src/100%.ts", "app/[slug]/page.tsx", "app/(shop)/cart.tsx", "src/a(b.ts"];
    const findings = paths.map((path) => ({ path, placed: { finding: { file: path, line: 3, endLine: 3, severity: "warning" as const, comment: "Check this." }, file: { path, blocks: [] }, original: [], sent: [] } }));
    const shown = await whole(findingsMarkdown("the uncommitted changes", `${paths.length} findings shown.`, findings));
    assert.deepEqual(shown.asked, paths.map((path) => ({ open: { path, line: 3 } })));
    assert.deepEqual(shown.links.map((l) => l.text), paths.map((path) => `${path}:3`));
  });
});
