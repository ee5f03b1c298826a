import assert from "node:assert/strict";
import { join } from "node:path";
import type { ToolStep } from "../../../src/core/agent/agent-task";
import type { AssistantTurn, ChatTurn, UserTurn } from "../../../src/core/chat/conversation";
import { openWebviewPage, type WebviewPage } from "../support/webview-page";

type Page = { start(): void; deliver(message: { turns: readonly ChatTurn[]; streaming: boolean }): void };

const asked: UserTurn = { id: "u1", role: "user", text: "why does the total test fail?", attachments: [], createdAt: 0 };
const answer = (status: AssistantTurn["status"], text: string, steps?: ToolStep[]): AssistantTurn => ({ id: "a1", role: "assistant", text, model: "m", status, createdAt: 0, ...(steps ? { agent: { steps, files: [], messages: [] } } : {}) });

describe("chat panel with a screen reader (webview, Chromium)", function () {
  this.timeout(60_000);
  let web: WebviewPage;
  before(async () => (web = await openWebviewPage(join(import.meta.dirname, "pages/chat-page.ts"))));
  after(() => web?.close());
  beforeEach(() => web.page.evaluate(() => (window as unknown as { chatPage: Page }).chatPage.start()));

  const deliver = (turns: ChatTurn[], streaming: boolean) => web.page.evaluate((m) => (window as unknown as { chatPage: Page }).chatPage.deliver(m), { turns, streaming });
  /** The text of the page's live regions (what a screen reader announces as it changes), whitespace folded. */
  const live = () => web.page.evaluate(() => {
    const regions = [...document.querySelectorAll<HTMLElement>("[aria-live], [role=status], [role=alert], [role=log]")].filter((node) => {
      const politeness = node.getAttribute("aria-live");
      return (politeness === null || politeness !== "off") && !node.closest("[hidden]");
    });
    return regions.map((node) => node.textContent ?? "").join(" ").replace(/\s+/g, " ").trim();
  });
  const heard = async (words: string) => {
    for (let frame = 0; frame < 30 && !(await live()).includes(words); frame++) await web.page.evaluate(() => new Promise(requestAnimationFrame));
    return live();
  };

  it("a complete answer is read out once it ends, not word by word while it streams", async () => {
    await deliver([asked, answer("streaming", "")], true);
    await deliver([asked, answer("streaming", "The test fails because")], true);
    assert.doesNotMatch(await live(), /The test fails/, "nothing read while it streams");
    await deliver([asked, answer("done", "The test fails because `total` is a string:\n\n```ts\nconst total = \"3\";\n```")], false);
    const spoken = await heard("Wisp answered");
    assert.match(spoken, /Wisp answered: The test fails because total is a string:\s*const total = "3";/);
    assert.doesNotMatch(spoken, /Insert|Apply/, "not the code block's buttons");
  });

  it("a long answer is read out to its first 1,500 characters, an emoji at the cut kept whole (never half of one)", async () => {
    // "Wisp answered: " (15) and 1,484 letters: the emoji's two halves sit at 1,500 characters' either side.
    const long = `${"a".repeat(1484)}😀 and the rest`;
    await deliver([asked, answer("streaming", "")], true);
    await deliver([asked, answer("done", long)], false);
    const spoken = await heard("(more in the conversation)");
    assert.match(spoken, /a(😀)?… \(more in the conversation\)/);
    assert.ok(!/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(spoken), "no lone high surrogate");
  });

  it("an agent's question on an approval card is read out when it comes", async () => {
    await deliver([asked, answer("streaming", "", [])], true);
    await deliver([asked, answer("streaming", "", [{ kind: "tool", id: "s1", tool: "run_in_terminal", title: "run npm test", status: "asking", command: "npm test" }])], true);
    assert.match(await heard("Wisp asks"), /Wisp asks: Run this command\? npm test/);
  });
});
