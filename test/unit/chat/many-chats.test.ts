import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { ChatStore, chatIndexKey, chatKey } from "../../../src/core/chat/chat-store";
import type { Chat, ChatTurn } from "../../../src/core/chat/conversation";
import { FileChatStorage } from "../../../src/extension/chat/file-chat-storage";
import type { Logger } from "../../../src/extension/logger";
import { TempDirs } from "../../harness/temp-dirs";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** Heap in use once garbage is collected, MB. */
function heapMb(): number {
  gc();
  return process.memoryUsage().heapUsed / 1e6;
}

describe("chat: months of chats in the workspace's storage folder", () => {
  const temp = new TempDirs();
  after(() => temp.removeAll());
  const log = { info() {}, error() {}, warn() {} } as unknown as Logger;

  /** `count` chats of ten questions and long answers (agent outputs), ~160 KB each, as months of use leave. */
  function manyChats(dir: string, count: number): void {
    const answer = "output line of a long agent step\n".repeat(480);
    const summaries = [];
    for (let i = 0; i < count; i++) {
      const turns: ChatTurn[] = [];
      for (let t = 0; t < 10; t++) {
        turns.push({ id: `u${t}`, role: "user", text: `question ${t}`, attachments: [], createdAt: i });
        turns.push({ id: `a${t}`, role: "assistant", text: `${answer}${i}`, model: "m", status: "done", createdAt: i });
      }
      const chat: Chat = { id: `chat${i}`, title: `chat ${i}`, createdAt: i, updatedAt: i, turns, pending: [] };
      writeFileSync(join(dir, `${encodeURIComponent(chatKey(chat.id))}.json`), JSON.stringify(chat));
      summaries.push({ id: chat.id, title: chat.title, updatedAt: i, turns: turns.length });
    }
    writeFileSync(join(dir, `${encodeURIComponent(chatIndexKey)}.json`), JSON.stringify({ version: 1, activeId: `chat${count - 1}`, chats: summaries }));
  }

  it("a window opens 250 of them (40 MB) without keeping them all in memory, and still reads any one asked for", () => {
    const dir = temp.make("chats");
    manyChats(dir, 250);
    const before = heapMb();
    const store = new ChatStore(FileChatStorage.open(dir, log), { newId: () => "new", now: () => Date.now() });
    assert.equal(store.active().id, "chat249");
    const grown = heapMb() - before;
    assert.equal(store.list().length, 250);
    assert.ok(grown < 8, `the extension host keeps ${grown.toFixed(1)} MB more for chats nobody opened`);
    assert.equal(store.get("chat3")?.turns.at(-1)?.text.endsWith("3"), true);
  });
});
