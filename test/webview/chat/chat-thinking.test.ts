import assert from "node:assert/strict";
import { join } from "node:path";
import type { AssistantTurn, ChatTurn, UserTurn } from "../../../src/core/chat/conversation";
import { openWebviewPage, type WebviewPage } from "../support/webview-page";

type Page = { start(): void; deliver(message: { turns: readonly ChatTurn[]; streaming: boolean }): void };

const asked: UserTurn = { id: "u1", role: "user", text: "what is 2 + 2?", attachments: [], createdAt: 0 };
const answer = (status: AssistantTurn["status"], text: string): AssistantTurn => ({ id: "a1", role: "assistant", text, model: "deepseek-r1", status, createdAt: 0 });
const reasoning = "The user asks for 2 + 2.\n\n```js\nconsole.log(2 + 2)\n```\n\nThat is 4.";

describe("a reasoning model's <think> block in the answer (webview, Chromium)", function () {
  this.timeout(60_000);
  let web: WebviewPage;
  before(async () => (web = await openWebviewPage(join(import.meta.dirname, "pages/chat-page.ts"))));
  after(() => web?.close());
  beforeEach(() => web.page.evaluate(() => (window as unknown as { chatPage: Page }).chatPage.start()));

  const deliver = (turns: ChatTurn[], streaming: boolean) => web.page.evaluate((m) => (window as unknown as { chatPage: Page }).chatPage.deliver(m), { turns, streaming });
  const shown = () =>
    web.page.evaluate(() => {
      const turn = document.querySelector<HTMLElement>(".turn.assistant")!;
      const thinking = turn.querySelector<HTMLDetailsElement>("details.thinking");
      return {
        answer: turn.querySelector<HTMLElement>(".markdown")!.innerText.trim(),
        thinking: thinking && !thinking.hidden ? { summary: thinking.querySelector("summary")!.textContent, open: thinking.open, text: thinking.querySelector(".thinking-text")!.textContent } : null,
        codeBars: turn.querySelectorAll(".code-bar").length,
        copy: turn.querySelector("button[aria-label='Copy answer']") !== null,
      };
    });

  it("is folded away as Thinking, not shown as the answer with its tags, while it streams and after", async () => {
    await deliver([asked, answer("streaming", "<think>\nThe user asks for 2 + 2.")], true);
    assert.deepEqual(await shown(), { answer: "", thinking: { summary: "Thinking…", open: false, text: "The user asks for 2 + 2." }, codeBars: 0, copy: false });
    await deliver([asked, answer("done", `<think>\n${reasoning}\n</think>\n\n2 + 2 is **4**.`)], false);
    assert.deepEqual(await shown(), { answer: "2 + 2 is 4.", thinking: { summary: "Thinking", open: false, text: reasoning }, codeBars: 0, copy: true });
  });

  it("an answer without one shows no Thinking", async () => {
    await deliver([asked, answer("done", "It is 4. A <think> tag in the text is text.")], false);
    assert.deepEqual(await shown(), { answer: "It is 4. A <think> tag in the text is text.", thinking: null, codeBars: 0, copy: true });
  });
});
