import assert from "node:assert/strict";
import { ChatViewMemory } from "../../../../src/core/chat/view-memory";
import { MemoryStorage } from "./memory-storage";

describe("chat view memory (scroll position and draft per chat)", () => {
  it("keeps each chat's scroll position and unsent text across a reopen, and forgets deleted chats", async () => {
    const storage = new MemoryStorage();
    const memory = new ChatViewMemory(storage);
    assert.deepEqual(memory.get("a"), { draft: "" });
    await memory.set("a", { scrollTop: 420, draft: "why does" });
    await memory.set("b", { scrollTop: 0, draft: "" });
    const reopened = new ChatViewMemory(storage);
    assert.deepEqual(reopened.get("a"), { scrollTop: 420, draft: "why does" });
    await reopened.forget("a");
    assert.deepEqual(new ChatViewMemory(storage).get("a"), { draft: "" });
    assert.deepEqual(new ChatViewMemory(storage).get("b"), { scrollTop: 0, draft: "" });
  });

  it("keeps the 100 most recently used chats", async () => {
    const memory = new ChatViewMemory(new MemoryStorage());
    for (let i = 0; i < 105; i++) await memory.set(`c${i}`, { scrollTop: i, draft: "" });
    await memory.set("c2", { scrollTop: 2, draft: "touched again" });
    assert.deepEqual(memory.get("c0"), { draft: "" });
    assert.equal(memory.get("c2").draft, "touched again");
    assert.equal(memory.get("c104").scrollTop, 104);
  });
});
