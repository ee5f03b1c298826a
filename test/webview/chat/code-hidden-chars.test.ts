import assert from "node:assert/strict";
import { join } from "node:path";
import type { CodeBlockAction } from "../../../src/webview/chat/code-blocks";
import { openWebviewPage, type WebviewPage } from "../support/webview-page";

interface Shown {
  hidden: { note: string | null; marked: string[] }[];
  asked: { code: CodeBlockAction }[];
}
type Page = { whole(text: string): Shown; tokens(text: string, size?: number): Shown };

describe("code an answer holds unseen (webview, Chromium)", function () {
  this.timeout(60_000);
  let web: WebviewPage;
  before(async () => {
    web = await openWebviewPage(join(import.meta.dirname, "pages/markdown-page.ts"));
    await web.page.addStyleTag({ path: join(import.meta.dirname, "../../../media/chat.css") });
  });
  after(() => web?.close());

  const whole = (text: string) => web.page.evaluate((t) => (window as unknown as { markdownPage: Page }).markdownPage.whole(t), text);
  const tokens = (text: string) => web.page.evaluate((t) => (window as unknown as { markdownPage: Page }).markdownPage.tokens(t), text);

  it("a bidirectional override (Trojan Source), a zero-width space and an ANSI escape are named and drawn; Copy and Insert keep the code as sent", async () => {
    // Reads as a check of isAdmin, but the override hides the `if` inside the comment.
    const code = 'if (access !== "user\u202E \u2066// Check if admin\u2069 \u2066") {\nconst a\u200B = 1;\nconsole.log("\u001b[31mred");\n';
    const answer = "Use this:\n\n```ts\n" + code + "```\n";
    for (const shown of [await whole(answer), await tokens(answer)]) {
      assert.deepEqual(shown.hidden.map((h) => h.note), ["Hidden characters in this code: U+202E, U+2066, U+2069, U+200B, U+001B (marked; Copy, Insert and Apply keep them)"]);
      assert.deepEqual(shown.hidden[0]!.marked, ['"U+202E"', '"U+2066"', '"U+2069"', '"U+2066"', '"U+200B"', '"U+001B"'], "each drawn as its code point");
      assert.deepEqual(shown.asked.map((a) => [a.code.action, a.code.code]), ["copy", "insert", "apply", "newFile"].map((action) => [action, code]), "the code itself is unchanged");
    }
  });

  it("ordinary code, emoji with joiners and tabs included, gets no note", async () => {
    const shown = await whole("```py\nfamily = \"👨\u200D👩\u200D👧\"\n\tprint(family)\r\n```\n");
    assert.deepEqual(shown.hidden, [{ note: null, marked: [] }]);
  });
});
