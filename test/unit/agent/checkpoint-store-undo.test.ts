import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CheckpointStore } from "../../../src/extension/agent/checkpoint-store";
import { TempDirs } from "../../harness/temp-dirs";

describe("extension/agent: Undo of the last task's files", () => {
  const temp = new TempDirs();
  after(() => temp.removeAll());
  const bytes = (text: string) => ({ existed: true as const, bytes: new TextEncoder().encode(text) });

  async function taskThatEdited(root: string, files: Record<string, string>): Promise<CheckpointStore> {
    const store = await CheckpointStore.open(join(temp.make("storage"), "agent-checkpoint"));
    await store.begin({ chatId: "c", turnId: "t" }, root);
    for (const [path, original] of Object.entries(files)) {
      mkdirSync(join(root, path, ".."), { recursive: true });
      writeFileSync(join(root, path), "the task's text\n");
      await store.remember(path, bytes(original));
    }
    return store;
  }

  it("gives back a file whose folder the task removed since (a command deleted src/old): the folder is made again", async () => {
    const root = temp.make("removed-folder");
    const store = await taskThatEdited(root, { "a.ts": "A original\n", "src/old/b.ts": "B original\n" });
    rmSync(join(root, "src/old"), { recursive: true });

    assert.deepEqual(await store.undo(root), { done: ["a.ts", "src/old/b.ts"], failed: [] });
    assert.equal(readFileSync(join(root, "a.ts"), "utf8"), "A original\n");
    assert.equal(readFileSync(join(root, "src/old/b.ts"), "utf8"), "B original\n");
    assert.deepEqual(store.paths(), []);
  });

  it("a file it cannot write (a folder in its place) stays for another try, and the other files are restored", async () => {
    const root = temp.make("blocked");
    const store = await taskThatEdited(root, { "a.ts": "A original\n", "b.ts": "B original\n", "c.ts": "C original\n" });
    rmSync(join(root, "b.ts"));
    mkdirSync(join(root, "b.ts"));

    const { done, failed } = await store.undo(root);
    assert.deepEqual(done, ["a.ts", "c.ts"]);
    assert.deepEqual(failed.map((f) => f.path), ["b.ts"]);
    assert.match(failed[0]!.reason, /EISDIR/);
    assert.equal(readFileSync(join(root, "c.ts"), "utf8"), "C original\n", "the file after the one that failed is restored too");
    assert.deepEqual(store.paths(), ["b.ts"], "only the failed file is kept");

    rmSync(join(root, "b.ts"), { recursive: true });
    assert.deepEqual(await store.undo(root), { done: ["b.ts"], failed: [] }, "Undo again restores it");
    assert.equal(readFileSync(join(root, "b.ts"), "utf8"), "B original\n");
    assert.equal(existsSync(join(root, "a.ts")), true);
  });
});
