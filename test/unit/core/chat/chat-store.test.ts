import assert from "node:assert/strict";
import { ChatStore, chatIndexKey, chatKey } from "../../../../src/core/chat/chat-store";
import { withTurn, withUserTurn, type AssistantTurn } from "../../../../src/core/chat/conversation";
import { waitFor } from "../../../harness/wait-for";
import { MemoryStorage, counters } from "./memory-storage";

describe("chat store (per-workspace persistence)", () => {
  it("a chat named after a long first message keeps an emoji at the cut whole (no � in the chat list)", () => {
    const store = new ChatStore(new MemoryStorage(), counters());
    const text = "Why does the build fail on the CI runners for 🚀 releases only?";
    assert.equal(text.indexOf("🚀"), 47 - 1, "the emoji's two halves straddle the 47-character cut");
    const named = withUserTurn(store.active(), { id: "u1", role: "user", text, attachments: [], createdAt: 5 });
    assert.equal(named.title, "Why does the build fail on the CI runners for…");
  });

  it("starts with one empty chat, and a reopened store has the same chats, titles and active chat", async () => {
    const storage = new MemoryStorage();
    const store = new ChatStore(storage, counters());
    const first = store.active();
    assert.equal(first.title, "New chat");
    store.put(withUserTurn(first, { id: "u1", role: "user", text: "How do I parse JSON in Go?", attachments: [], createdAt: 5 }));
    const second = store.create();
    await store.flush();

    const reopened = new ChatStore(storage, counters());
    assert.equal(reopened.active().id, second.id);
    assert.deepEqual(reopened.list().map((c) => c.id).sort(), [first.id, second.id].sort());
    assert.equal(reopened.get(first.id)?.title, "How do I parse JSON in Go?");
    assert.equal(reopened.get(first.id)?.turns.length, 1);
  });

  it("switches, renames and deletes; deleting the active chat activates the newest other one", async () => {
    const storage = new MemoryStorage();
    const store = new ChatStore(storage, counters());
    const a = store.active();
    const b = store.create();
    store.put({ ...store.get(a.id)!, title: "Renamed", titleSet: true, updatedAt: b.updatedAt + 10 });
    assert.equal(store.activate(a.id)?.id, a.id);
    store.remove(a.id);
    await store.flush();
    assert.equal(store.active().id, b.id);
    assert.equal(storage.get(chatKey(a.id)), undefined, "the deleted chat's entry is gone");
    store.remove(b.id);
    await store.flush();
    assert.equal(store.list().length, 1, "deleting the last chat leaves a new empty one");
    assert.notEqual(store.active().id, b.id);
    assert.equal(new ChatStore(storage, counters()).active().id, store.active().id);
  });

  it("lists chats made in the same millisecond newest first, and deleting the active one activates the one made before it", () => {
    const sameMillisecond = { newId: counters().newId, now: () => 1_700_000_000_000 };
    const store = new ChatStore(new MemoryStorage(), sameMillisecond);
    const [a, b, c] = [store.active(), store.create(), store.create()];
    assert.deepEqual(store.list().map((s) => s.id), [c.id, b.id, a.id]);
    store.remove(c.id);
    assert.equal(store.active().id, b.id);
  });

  it("batches writes while an answer streams, and writes a finished answer at once", async () => {
    const storage = new MemoryStorage();
    const store = new ChatStore(storage, { ...counters(), batchMs: 30 });
    const chat = store.active();
    await store.flush();
    const before = storage.writes;
    let turn: AssistantTurn = { id: "t", role: "assistant", text: "", model: "m", status: "streaming", createdAt: 1 };
    for (let i = 0; i < 50; i++) {
      turn = { ...turn, text: turn.text + "x" };
      store.put(withTurn(store.get(chat.id)!, turn, i), "soon");
    }
    assert.equal(storage.writes, before, "nothing written yet");
    // The batch is written once its time is up, however late the timer fires on a busy machine.
    await waitFor("the batch written", () => storage.writes - before, (n) => n > 0);
    assert.equal(storage.writes - before, 2, "one write of the chat and one of the index");
    assert.equal((storage.get(chatKey(chat.id)) as { turns: AssistantTurn[] }).turns[0]?.text, "x".repeat(50));
  });

  it("an answer still streaming when the store was last written shows as interrupted after a reload", async () => {
    const storage = new MemoryStorage();
    const store = new ChatStore(storage, counters());
    const chat = store.active();
    store.put(withTurn(chat, { id: "t", role: "assistant", text: "half an ans", model: "m", status: "streaming", createdAt: 1 }, 2));
    await store.flush();
    const reopened = new ChatStore(storage, counters());
    const turn = reopened.active().turns[0] as AssistantTurn;
    assert.equal(turn.status, "interrupted");
    assert.equal(turn.text, "half an ans");
  });

  it("survives damaged storage: a bad index or chat entry is dropped, not thrown", () => {
    const storage = new MemoryStorage();
    storage.data.set(chatIndexKey, JSON.stringify({ version: 1, activeId: "gone", chats: [{ id: "gone", title: "x", updatedAt: 1, turns: 1 }, "junk"] }));
    storage.data.set(chatKey("gone"), JSON.stringify({ id: "gone", turns: "not a list" }));
    const store = new ChatStore(storage, counters());
    assert.equal(store.list().length, 1);
    assert.equal(store.active().turns.length, 0);
  });
});
