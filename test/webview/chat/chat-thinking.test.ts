import assert from "node:assert/strict";
import type { AssistantTurn, UserTurn } from "../../../src/core/chat/conversation";
import { useChatPage } from "./pages/chat-page-driver";

const asked: UserTurn = { id: "u1", role: "user", text: "what is 2 + 2?", attachments: [], createdAt: 0 };
const answer = (status: AssistantTurn["status"], text: string): AssistantTurn => ({ id: "a1", role: "assistant", text, model: "deepseek-r1", status, createdAt: 0 });
const reasoning = "The user asks for 2 + 2.\n\n```js\nconsole.log(2 + 2)\n```\n\nThat is 4.";

describe("a reasoning model's <think> block in the answer (webview, Chromium)", function () {
  this.timeout(60_000);
  const chat = useChatPage();

  const deliver = chat.deliver;
  const shown = () =>
    chat.web().page.evaluate(() => {
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
