import assert from "node:assert/strict";
import { join } from "node:path";
import type { AssistantTurn, ChatTurn, UserTurn } from "../../../src/core/chat/conversation";
import type { HostMessage } from "../../../src/core/chat/protocol";
import { openWebviewPage, type WebviewPage } from "../support/webview-page";

type Page = { start(): void; deliver(message: { turns: readonly ChatTurn[]; streaming: boolean } | HostMessage): void };

// Hebrew with an English command inside, as an answer to a Hebrew speaker reads.
const hebrew = "כדי להתקין, הרץ npm install ואז npm test.";
const asked: UserTurn = { id: "u1", role: "user", text: "איך מתקינים את הפרויקט?", attachments: [], createdAt: 0 };
const text = [hebrew, "", "- שלב ראשון: npm install", "- Then run the tests.", "", "```sh", "npm install", "```", "", "Done in English."].join("\n");
const answer: AssistantTurn = { id: "a1", role: "assistant", text, model: "m", status: "done", createdAt: 0 };

describe("chat panel in a right-to-left language (webview, Chromium)", function () {
  this.timeout(60_000);
  let web: WebviewPage;
  before(async () => (web = await openWebviewPage(join(import.meta.dirname, "pages/chat-page.ts"))));
  after(() => web?.close());
  beforeEach(() => web.page.evaluate(() => (window as unknown as { chatPage: Page }).chatPage.start()));

  const deliver = (turns: ChatTurn[]) => web.page.evaluate((m) => (window as unknown as { chatPage: Page }).chatPage.deliver(m), { turns, streaming: false });
  /** The direction each matching element is laid out in, with the start of its text. */
  const directions = (selector: string) =>
    web.page.evaluate((s) => [...document.querySelectorAll<HTMLElement>(s)].map((node) => `${getComputedStyle(node).direction} ${(node.textContent ?? "").trim().slice(0, 12)}`), selector);

  it("Hebrew paragraphs, list items and the question read right to left; English ones and code left to right", async () => {
    await deliver([asked, answer]);
    assert.deepEqual(await directions(".user-text"), [`rtl ${asked.text.slice(0, 12)}`]);
    assert.deepEqual(await directions(".turn.assistant p, .turn.assistant li"), ["rtl", "rtl", "ltr", "ltr"].map((dir, i) => `${dir} ${[hebrew, "שלב ראשון: npm install", "Then run the tests.", "Done in English."][i]!.slice(0, 12)}`));
    assert.deepEqual((await directions(".turn.assistant pre")).map((d) => d.split(" ")[0]), ["ltr"]);
  });

  it("the prompt box writes a Hebrew question right to left and an English one left to right", async () => {
    await deliver([]);
    await web.page.focus("textarea");
    await web.page.keyboard.type("שלום, מה שלומך?");
    assert.equal((await directions(".composer textarea"))[0]!.split(" ")[0], "rtl");
    await web.page.fill("textarea", "hello, how are you?");
    assert.equal((await directions(".composer textarea"))[0]!.split(" ")[0], "ltr");
  });
});
