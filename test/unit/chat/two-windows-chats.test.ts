import assert from "node:assert/strict";
import { ChatStore } from "../../../src/core/chat/chat-store";
import { withTurn, withUserTurn, type AssistantTurn, type Chat } from "../../../src/core/chat/conversation";
import { FileChatStorage } from "../../../src/extension/chat/file-chat-storage";
import type { Logger } from "../../../src/extension/logger";
import { TempDirs } from "../../harness/temp-dirs";

const log = { info() {}, error() {}, warn() {} } as unknown as Logger;

/** A question and its answer, as the chat session stores them: read the chat, add, put. */
function ask(store: ChatStore, chatId: string, question: string, now: number): void {
  const asked = withUserTurn(store.get(chatId)!, { id: `u-${question}`, role: "user", text: question, attachments: [], createdAt: now });
  store.put(asked);
  const answer: AssistantTurn = { id: `a-${question}`, role: "assistant", text: `answer to ${question}`, model: "m", status: "done", createdAt: now };
  store.put(withTurn(store.get(chatId)!, answer, now));
}

const texts = (chat: Chat | undefined) => chat?.turns.map((t) => t.text);

describe("chat: one workspace open in two windows (two extension hosts on one storage folder)", () => {
  const temp = new TempDirs();
  after(() => temp.removeAll());
  let ids = 0;
  let clock = 1_000;
  const open = (dir: string) => new ChatStore(FileChatStorage.open(dir, log), { newId: () => `chat${++ids}`, now: () => ++clock });

  it("a chat one window made is listed in the other, and stays listed after the other window writes its index", async () => {
    const dir = temp.make("two-windows");
    const windowA = open(dir);
    const windowB = open(dir);
    const made = windowA.create();
    ask(windowA, made.id, "where is the cart total computed", ++clock);
    await windowA.flush();
    // Window B goes on with its own chat: its index write must not drop window A's.
    ask(windowB, windowB.active().id, "what does main do", ++clock);
    await windowB.flush();
    assert.ok(windowB.list().some((s) => s.id === made.id), "window B's history lists window A's chat");
    assert.deepEqual(texts(windowB.get(made.id)), ["where is the cart total computed", "answer to where is the cart total computed"]);
    const reopened = open(dir);
    assert.deepEqual(reopened.list().map((s) => s.title).sort(), ["what does main do", "where is the cart total computed"]);
  });

  it("an answer one window wrote is kept when the other window, which showed the chat before it, goes on in the same chat", async () => {
    const dir = temp.make("two-windows-same-chat");
    const windowA = open(dir);
    const shared = windowA.active().id;
    await windowA.flush();
    // Window B opens on the same active chat and reads it (the chat view shows it).
    const windowB = open(dir);
    assert.equal(windowB.active().id, shared);
    ask(windowA, shared, "first question", ++clock);
    await windowA.flush();
    ask(windowB, shared, "second question", ++clock);
    await windowB.flush();
    assert.deepEqual(texts(open(dir).get(shared)), ["first question", "answer to first question", "second question", "answer to second question"]);
  });
});
