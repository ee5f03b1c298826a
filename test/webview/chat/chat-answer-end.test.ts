import assert from "node:assert/strict";
import type { AssistantTurn, UserTurn } from "../../../src/core/chat/conversation";
import { useChatPage } from "./pages/chat-page-driver";

const asked: UserTurn = { id: "u1", role: "user", text: "write the report", attachments: [], createdAt: 0 };
const usage = (answer: number) => ({ prompt_tokens: 3000, completion_tokens: answer, total_tokens: 3000 + answer });
const ended = (text: string, more: Partial<AssistantTurn>): AssistantTurn => ({ id: "a1", role: "assistant", text, model: "m", status: "done", createdAt: 0, finishedAt: 1000, maxTokens: 1000, ...more });

describe("how a chat answer ended, under it (webview, Chromium)", function () {
  this.timeout(60_000);
  const chat = useChatPage();

  /** The answer streams, then ends as `end`: what its footer says, and what a screen reader hears. */
  const footerAfter = async (end: AssistantTurn) => {
    const streaming = { ...end, status: "streaming" as const, text: end.text.slice(0, 5) };
    for (const [turn, live] of [[streaming, true], [end, false]] as const) {
      await chat.deliver([asked, turn], live);
    }
    let heard = "";
    for (let frame = 0; frame < 30 && heard === ""; frame++) heard = await chat.web().page.evaluate(() => new Promise<string>((done) => requestAnimationFrame(() => done(document.querySelector(".announcer")?.textContent ?? ""))));
    const footer = await chat.web().page.evaluate(() => document.querySelector(".turn.assistant .turn-footer .status")?.textContent ?? "");
    return { footer, heard };
  };

  it("an answer the server's content filter cut (Azure's finish_reason content_filter) says so, on screen and to a screen reader", async () => {
    const shown = await footerAfter(ended("The report covers the first quarter and", { finishReason: "content_filter", usage: usage(9) }));
    assert.match(shown.footer, /^Cut off by the server's content filter · 3000 prompt \+ 9 answer tokens/);
    assert.match(shown.heard, /^Wisp answered \(Cut off by the server's content filter\): The report covers/);
  });

  it("an answer cut by the model's full context is not blamed on the max tokens setting", async () => {
    assert.match((await footerAfter(ended("The report covers", { finishReason: "length", usage: usage(96) }))).footer, /^Cut off: the model's context is full/);
    assert.match((await footerAfter(ended("The report covers", { finishReason: "length", usage: usage(1000) }))).footer, /^Cut off at the max tokens limit \(wisp\.chat\.maxTokens\)/);
  });

  it("an empty answer, and one that asked for a tool in Ask mode, are explained", async () => {
    assert.match((await footerAfter(ended("", { finishReason: "stop", usage: usage(0) }))).footer, /^The model sent an empty answer · /);
    assert.match((await footerAfter(ended("", { finishReason: "tool_calls", usage: usage(20) }))).footer, /^The model asked to call a tool, which Ask mode does not run/);
    assert.match((await footerAfter(ended("Done.", { finishReason: "stop", usage: usage(2) }))).footer, /^3000 prompt \+ 2 answer tokens · 1\.0 s$/, "a normal end adds nothing");
  });
});
