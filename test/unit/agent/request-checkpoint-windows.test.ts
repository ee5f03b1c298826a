import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RequestCheckpointStore } from "../../../src/extension/agent/request-checkpoint-store";
import { TempDirs } from "../../harness/temp-dirs";

/** One agent request in `chat` writing `text` to `path`, as the edit tools record it. */
async function request(store: RequestCheckpointStore, root: string, chat: string, id: string, path: string, text: string): Promise<void> {
  await store.begin(chat, id, `answer-${id}`);
  const recorder = store.recorder(chat, id, root);
  await recorder.remember(path, new Uint8Array(readFileSync(join(root, path))));
  writeFileSync(join(root, path), text);
  await recorder.wrote(path);
}

describe("extension/agent: the request checkpoints of two windows of one workspace (one storage folder)", () => {
  const temp = new TempDirs();
  after(() => temp.removeAll());

  it("a window that gives its own Redo up keeps the stored copies the other window's checkpoints need: that window still restores", async () => {
    const root = temp.make("windows-root");
    const storage = join(temp.make("windows-storage"), "agent-requests");
    mkdirSync(join(root, "src"));
    writeFileSync(join(root, "src/cart.js"), "total = 1;\n");
    writeFileSync(join(root, "notes.md"), "# Notes\n");
    // Both windows open at once (each extension host reads the folder at activation).
    const windowA = RequestCheckpointStore.open(storage);
    const windowB = RequestCheckpointStore.open(storage);

    await request(windowA, root, "chat-a", "a1", "src/cart.js", "total = 2;\n");
    // Window B: a task, Restore Checkpoint, then a new request, which gives Redo up and collects.
    await request(windowB, root, "chat-b", "b1", "notes.md", "# Notes\nmore\n");
    await windowB.restore("chat-b", "b1", root, [], "");
    await request(windowB, root, "chat-b", "b2", "notes.md", "# Notes\nagain\n");

    assert.deepEqual((await windowA.planRestore("chat-a", "a1", root))?.files, [{ path: "src/cart.js", changed: false }]);
    await windowA.restore("chat-a", "a1", root, [], "");
    assert.equal(readFileSync(join(root, "src/cart.js"), "utf8"), "total = 1;\n");
    // And a window opened later (a reload) has them too.
    writeFileSync(join(root, "src/cart.js"), "total = 2;\n");
    await request(windowA, root, "chat-a", "a2", "src/cart.js", "total = 3;\n");
    await request(windowB, root, "chat-b", "b3", "notes.md", "# Notes\nthird\n");
    await windowB.restore("chat-b", "b3", root, [], "");
    await request(windowB, root, "chat-b", "b4", "notes.md", "# Notes\nfourth\n");
    await RequestCheckpointStore.open(storage).restore("chat-a", "a2", root, [], "");
    assert.equal(readFileSync(join(root, "src/cart.js"), "utf8"), "total = 2;\n");
  });

  it("a chat both windows go on in keeps the checkpoints of the requests made in each", async () => {
    const root = temp.make("windows-root");
    const storage = join(temp.make("windows-storage"), "agent-requests");
    writeFileSync(join(root, "cart.js"), "total = 1;\n");
    const windowA = RequestCheckpointStore.open(storage);
    const windowB = RequestCheckpointStore.open(storage);
    await request(windowA, root, "chat-1", "r1", "cart.js", "total = 2;\n");
    // Window B, which read the folder before request r1, asks the next question in the same chat.
    await request(windowB, root, "chat-1", "r2", "cart.js", "total = 3;\n");
    assert.deepEqual(windowB.get("chat-1").requests.map((r) => r.requestId), ["r1", "r2"]);
    assert.deepEqual(RequestCheckpointStore.open(storage).get("chat-1").requests.map((r) => r.requestId), ["r1", "r2"], "after a reload");
    // Window A restores to before its own request: the file as it was before both.
    await windowA.restore("chat-1", "r1", root, [], "");
    assert.equal(readFileSync(join(root, "cart.js"), "utf8"), "total = 1;\n");
  });
});
