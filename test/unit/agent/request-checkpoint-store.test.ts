import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ChatTurn } from "../../../src/core/chat/conversation";
import { RequestCheckpointStore } from "../../../src/extension/agent/request-checkpoint-store";
import { TempDirs } from "../../harness/temp-dirs";

// Bytes a text round trip would change: a BOM, CRLF, no final newline, invalid UTF-8, a NUL.
const cartOriginal = Buffer.from([0xef, 0xbb, 0xbf, ...Buffer.from("total = 1;\r\nexport { total }"), 0xff, 0x00]);
const turn = (id: string): ChatTurn => ({ id, role: "user", text: id, attachments: [], createdAt: 1 });

describe("extension/agent: the request checkpoints on disk (byte-exact, across a reload)", () => {
  const temp = new TempDirs();
  let root: string;
  let storage: string;
  beforeEach(() => {
    root = temp.make("checkpoint-root");
    storage = join(temp.make("checkpoint-storage"), "agent-requests");
    mkdirSync(join(root, "src"));
    writeFileSync(join(root, "src/cart.js"), cartOriginal);
    writeFileSync(join(root, "notes.md"), "# Notes\n");
  });
  after(() => temp.removeAll());

  const read = (path: string) => (existsSync(join(root, path)) ? readFileSync(join(root, path)) : undefined);

  /** A request's task writing files the way the edit tools do: remember before the first write, record after each. */
  async function request(store: RequestCheckpointStore, id: string, writes: [string, string | Buffer | undefined][]): Promise<void> {
    await store.begin("chat-1", id, `answer-${id}`);
    const recorder = store.recorder("chat-1", id, root);
    for (const [path, bytes] of writes) {
      if (!recorder.has(path)) await recorder.remember(path, read(path) && new Uint8Array(read(path)!));
      if (bytes === undefined) rmSync(join(root, path));
      else {
        mkdirSync(join(root, path, ".."), { recursive: true });
        writeFileSync(join(root, path), bytes);
      }
      await recorder.wrote(path);
    }
  }

  async function threeRequests(store: RequestCheckpointStore): Promise<Buffer[]> {
    await request(store, "r1", [["src/cart.js", "total = 2;\n"], ["src/new.js", "new\n"]]);
    const afterOne = read("src/cart.js")!;
    await request(store, "r2", [["notes.md", "# Notes\r\nmore\r\n"]]);
    await request(store, "r3", [["src/cart.js", "total = 3;\n"], ["notes.md", undefined]]);
    return [afterOne];
  }

  it("restores request 1 of 3 to the exact bytes, deletes what was created, brings back what was deleted, and keeps it all across a reload for Redo", async () => {
    const store = RequestCheckpointStore.open(storage);
    await threeRequests(store);
    assert.deepEqual((await store.planRestore("chat-1", "r1", root))!.files, [
      { path: "src/cart.js", changed: false },
      { path: "src/new.js", changed: false },
      { path: "notes.md", changed: false },
    ]);
    const paths = await store.restore("chat-1", "r1", root, [turn("r1"), turn("r2"), turn("r3")], "");
    assert.deepEqual(paths, ["src/cart.js", "src/new.js", "notes.md"]);
    assert.deepEqual(read("src/cart.js"), cartOriginal);
    assert.equal(read("src/new.js"), undefined);
    assert.equal(read("notes.md")?.toString(), "# Notes\n");

    // A reload: a new store over the same folder.
    const reloaded = RequestCheckpointStore.open(storage);
    assert.deepEqual(reloaded.get("chat-1").requests, []);
    assert.equal((await reloaded.planRedo("chat-1", root, "someone else's turn")), undefined, "only while the chat still ends where the restore left it");
    const redone = await reloaded.redo("chat-1", root, "");
    assert.deepEqual(redone!.turns.map((t) => t.id), ["r1", "r2", "r3"]);
    assert.equal(read("src/cart.js")!.toString(), "total = 3;\n");
    assert.equal(read("src/new.js")!.toString(), "new\n");
    assert.equal(read("notes.md"), undefined, "request 3 had deleted it");
    assert.deepEqual(RequestCheckpointStore.open(storage).get("chat-1").requests.map((r) => r.requestId), ["r1", "r2", "r3"]);
  });

  it("names the files changed since the agent's write (by hand, deleted), and Redo after a restore gives the hand's bytes back", async () => {
    const store = RequestCheckpointStore.open(storage);
    await threeRequests(store);
    writeFileSync(join(root, "src/cart.js"), "total = 3; // by hand\n");
    rmSync(join(root, "src/new.js"));
    const plan = await store.planRestore("chat-1", "r3", root);
    assert.deepEqual(plan, { files: [{ path: "src/cart.js", changed: true }, { path: "notes.md", changed: false }], requests: 1 });
    await store.restore("chat-1", "r3", root, [turn("r3")], "a2");
    writeFileSync(join(root, "src/cart.js"), "changed after the restore\n");
    assert.deepEqual((await store.planRedo("chat-1", root, "a2"))!.files, [{ path: "src/cart.js", changed: true }, { path: "notes.md", changed: false }]);
    await store.redo("chat-1", root, "a2");
    assert.equal(read("src/cart.js")!.toString(), "total = 3; // by hand\n");
  });

  it("a new request gives Redo up and deletes the stored copies nothing needs any more", async () => {
    const store = RequestCheckpointStore.open(storage);
    await threeRequests(store);
    await store.restore("chat-1", "r2", root, [turn("r2"), turn("r3")], "a1");
    const blobs = () => readdirSync(join(storage, "blobs")).sort();
    const withRedo = blobs();
    await request(store, "r4", [["src/cart.js", "total = 4;\n"]]);
    assert.deepEqual(store.get("chat-1").redo, []);
    assert.equal(await store.planRedo("chat-1", root, "a1"), undefined);
    assert.ok(blobs().length < withRedo.length, `${withRedo.length} copies before, ${blobs().length} after`);
    // What is left still restores exactly.
    await store.restore("chat-1", "r1", root, [], "");
    assert.deepEqual(read("src/cart.js"), cartOriginal);
    assert.equal(read("notes.md")?.toString(), "# Notes\n");
  });

  it("a write that fails puts back what the restore had already written, and the checkpoints stay as they were", async () => {
    const store = RequestCheckpointStore.open(storage);
    mkdirSync(join(root, "lib"));
    writeFileSync(join(root, "lib/util.js"), "util\n");
    await request(store, "r1", [["src/cart.js", "total = 2;\n"], ["src/new.js", "new\n"], ["lib/util.js", undefined]]);
    const before = JSON.stringify(store.get("chat-1"));
    // lib/util.js cannot come back: a file took its folder's name.
    rmSync(join(root, "lib"), { recursive: true });
    writeFileSync(join(root, "lib"), "a file now");
    await assert.rejects(store.restore("chat-1", "r1", root, [], ""), /EEXIST|ENOTDIR/);
    assert.equal(read("src/cart.js")!.toString(), "total = 2;\n", "the file written first was put back");
    assert.equal(read("src/new.js")!.toString(), "new\n", "the file deleted was put back");
    assert.equal(JSON.stringify(store.get("chat-1")), before);
    rmSync(join(root, "lib"));
    await store.restore("chat-1", "r1", root, [], "");
    assert.deepEqual(read("src/cart.js"), cartOriginal);
    assert.equal(read("lib/util.js")!.toString(), "util\n");
  });

  it("forgets the checkpoints of deleted chats; a damaged manifest costs only its chat; without a folder it works in memory", async () => {
    const store = RequestCheckpointStore.open(storage);
    await threeRequests(store);
    await store.begin("chat-2", "q1", "a1");
    await store.recorder("chat-2", "q1", root).remember("other.txt", undefined);
    writeFileSync(join(storage, "broken.json"), "{not json");
    assert.deepEqual(RequestCheckpointStore.open(storage).get("chat-2").requests.map((r) => r.requestId), ["q1"]);
    await store.prune(new Set(["chat-2"]));
    const reopened = RequestCheckpointStore.open(storage);
    assert.deepEqual(reopened.get("chat-1").requests, []);
    assert.equal(existsSync(join(storage, "chat-1.json")), false);
    assert.deepEqual(readdirSync(join(storage, "blobs")), [], "chat-2 stored no content (its file did not exist)");

    writeFileSync(join(root, "src/cart.js"), cartOriginal);
    const memory = RequestCheckpointStore.open(undefined);
    await threeRequests(memory);
    await memory.restore("chat-1", "r1", root, [], "");
    assert.deepEqual(read("src/cart.js"), cartOriginal);
  });
});
