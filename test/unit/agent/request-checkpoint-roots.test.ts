import assert from "node:assert/strict";
import { join } from "node:path";
import { RequestCheckpointStore } from "../../../src/extension/agent/request-checkpoint-store";
import { TempDirs } from "../../harness/temp-dirs";

describe("extension/agent: the folder a chat's request checkpoints name files in", () => {
  const temp = new TempDirs();
  after(() => temp.removeAll());

  it("is kept with the checkpoints, across a reload, whatever folder comes first later", async () => {
    const storage = join(temp.make("roots-storage"), "agent-requests");
    const store = RequestCheckpointStore.open(storage);
    await store.begin("chat-1", "q1", "a1", "/work/beta");
    assert.equal(store.rootOf("chat-1"), "/work/beta");
    assert.equal(RequestCheckpointStore.open(storage).rootOf("chat-1"), "/work/beta");
  });

  it("drops a chat's checkpoints from another folder when a request starts in a new one, so no path is restored into the wrong folder", async () => {
    const store = RequestCheckpointStore.open(undefined);
    await store.begin("chat-1", "q1", "a1", "/work/alpha");
    await store.begin("chat-1", "q2", "a2", "/work/beta");
    assert.deepEqual(store.get("chat-1").requests.map((r) => r.requestId), ["q2"]);
    assert.equal(store.rootOf("chat-1"), "/work/beta");
  });

  it("keeps the checkpoints of a chat that goes on in the same folder", async () => {
    const store = RequestCheckpointStore.open(undefined);
    await store.begin("chat-1", "q1", "a1", "/work/alpha");
    await store.begin("chat-1", "q2", "a2", "/work/alpha");
    assert.deepEqual(store.get("chat-1").requests.map((r) => r.requestId), ["q1", "q2"]);
  });
});
