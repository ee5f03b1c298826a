import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ChatStore, chatIndexKey } from "../../../src/core/chat/chat-store";
import type { Chat } from "../../../src/core/chat/conversation";
import { RequestCheckpointStore } from "../../../src/extension/agent/request-checkpoint-store";
import { FileChatStorage } from "../../../src/extension/chat/file-chat-storage";
import type { Logger } from "../../../src/extension/logger";
import { TempDirs } from "../../harness/temp-dirs";

describe("chat: a damaged chat index (cut short by a power cut, a hand edit, a sync tool)", () => {
  const temp = new TempDirs();
  after(() => temp.removeAll());

  function logger(): { log: Logger; warnings: string[] } {
    const warnings: string[] = [];
    const log = { info() {}, error() {}, warn: (m: string) => warnings.push(m) } as unknown as Logger;
    return { log, warnings };
  }

  /** Two chats with a message each, written, then the index file cut short. */
  async function twoChatsThenCutIndex(dir: string): Promise<{ first: Chat; second: Chat; opts: { newId: () => string; now: () => number } }> {
    let id = 0;
    let time = 1_700_000_000_000;
    const opts = { newId: () => `chat${++id}`, now: () => ++time };
    const store = new ChatStore(FileChatStorage.open(dir, logger().log), opts);
    const titled = (chat: Chat, title: string): Chat => ({ ...chat, title, titleSet: true, updatedAt: ++time, turns: [{ id: `${chat.id}-u`, role: "user", text: title, attachments: [], createdAt: time }] });
    const first = titled(store.active(), "Parse JSON in Go");
    store.put(first);
    const second = titled(store.create(), "Fix the flaky test");
    store.put(second);
    await store.flush();
    const index = join(dir, `${encodeURIComponent(chatIndexKey)}.json`);
    writeFileSync(index, readFileSync(index, "utf8").slice(0, 10));
    return { first, second, opts };
  }

  it("the reopened store still lists the earlier chats, newest first, and keeps the damaged file aside", async () => {
    const dir = temp.make("chats");
    const { first, second, opts } = await twoChatsThenCutIndex(dir);
    const { log, warnings } = logger();

    const reopened = new ChatStore(FileChatStorage.open(dir, log), opts);
    await reopened.flush();

    assert.deepEqual(reopened.list().map((c) => c.title), ["Fix the flaky test", "Parse JSON in Go"]);
    assert.equal(reopened.active().id, second.id, "the newest chat is the active one");
    assert.equal(reopened.get(first.id)?.turns[0]?.text, "Parse JSON in Go");
    assert.equal(reopened.recovered(), 2);
    const aside = readdirSync(dir).filter((n) => n.startsWith(`${encodeURIComponent(chatIndexKey)}.json.corrupt-`));
    assert.equal(aside.length, 1, `the damaged index is kept aside: ${readdirSync(dir).join(", ")}`);
    assert.equal(readFileSync(join(dir, aside[0]!), "utf8").length, 10);
    assert.ok(warnings.some((w) => w.includes(aside[0]!)), "the log names the file kept aside");

    const again = new ChatStore(FileChatStorage.open(dir, logger().log), opts);
    assert.deepEqual(again.list().map((c) => c.title), ["Fix the flaky test", "Parse JSON in Go"], "the rebuilt index was written");
    assert.equal(again.recovered(), 0);
  });

  it("a stray file whose name is no key (notes%.json, copied into the folder) hides no chat", async () => {
    const dir = temp.make("chats");
    const { opts } = await twoChatsThenCutIndex(dir);
    writeFileSync(join(dir, "notes%.json"), "{}");
    const reopened = new ChatStore(FileChatStorage.open(dir, logger().log), opts);
    assert.deepEqual(reopened.list().map((c) => c.title), ["Fix the flaky test", "Parse JSON in Go"]);
  });

  it("the agent's Restore/Redo checkpoints of the earlier chats are not pruned", async () => {
    const dir = temp.make("chats");
    const workspace = temp.make("workspace");
    const requests = join(temp.make("storage"), "agent-requests");
    const { first, second, opts } = await twoChatsThenCutIndex(dir);
    const checkpoints = RequestCheckpointStore.open(requests);
    for (const chat of [first, second]) {
      await checkpoints.begin(chat.id, "r1", "a1", workspace);
      await checkpoints.recorder(chat.id, "r1", workspace).remember("a.ts", new TextEncoder().encode("original\n"));
    }

    // What the agent controller does at start: prune against the chats the store knows.
    const reopened = new ChatStore(FileChatStorage.open(dir, logger().log), opts);
    const reloaded = RequestCheckpointStore.open(requests);
    await reloaded.prune(reopened.storedIds());

    const after = RequestCheckpointStore.open(requests);
    assert.equal(after.get(first.id).requests.length, 1, "the first chat can still be restored");
    assert.equal(after.get(second.id).requests.length, 1, "the second chat can still be restored");
  });

  it("a chat written just before a crash cut off the index's write is listed again, beside the index's chats", async () => {
    const dir = temp.make("chats");
    let id = 0;
    let time = 1_700_000_000_000;
    const opts = { newId: () => `chat${++id}`, now: () => ++time };
    const store = new ChatStore(FileChatStorage.open(dir, logger().log), opts);
    const titled = (chat: Chat, title: string): Chat => ({ ...chat, title, titleSet: true, updatedAt: ++time, turns: [{ id: `${chat.id}-u`, role: "user", text: title, attachments: [], createdAt: time }] });
    store.put(titled(store.active(), "Parse JSON in Go"));
    await store.flush();
    const index = join(dir, `${encodeURIComponent(chatIndexKey)}.json`);
    const indexBefore = readFileSync(index, "utf8");
    const late = titled(store.create(), "Fix the flaky test");
    store.put(late);
    await store.flush();
    // The crash: the chat's own file was written, the index's write was not.
    writeFileSync(index, indexBefore);

    const reopened = new ChatStore(FileChatStorage.open(dir, logger().log), opts);
    await reopened.flush();
    assert.deepEqual(reopened.list().map((c) => c.title), ["Fix the flaky test", "Parse JSON in Go"]);
    assert.equal(reopened.get(late.id)?.turns[0]?.text, "Fix the flaky test");
    assert.equal(reopened.recovered(), 0, "the index was read: no warning about a damaged list");
    const again = new ChatStore(FileChatStorage.open(dir, logger().log), opts);
    assert.deepEqual(again.list().map((c) => c.title), ["Fix the flaky test", "Parse JSON in Go"], "the index now lists it");
  });
});
