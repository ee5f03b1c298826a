import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CheckpointStore } from "../../../src/extension/agent/checkpoint-store";
import { TempDirs } from "../../harness/temp-dirs";

describe("extension/agent: the last task's checkpoint keeps the folder it worked in", () => {
  const temp = new TempDirs();
  after(() => temp.removeAll());

  it("names the task's folder after a reload, and Undo writes the original back there", async () => {
    const beta = temp.make("beta");
    mkdirSync(join(beta, "src"));
    writeFileSync(join(beta, "src/index.ts"), "edited\n");
    const storage = join(temp.make("checkpoint-storage"), "agent-checkpoint");
    const store = await CheckpointStore.open(storage);
    await store.begin({ chatId: "c", turnId: "t" }, beta);
    await store.remember("src/index.ts", { existed: true, bytes: new TextEncoder().encode("original\n") });

    const reloaded = await CheckpointStore.open(storage);
    assert.equal(reloaded.root(), beta);
    assert.deepEqual(await reloaded.undo(reloaded.root()!), { done: ["src/index.ts"], failed: [] });
    assert.equal(readFileSync(join(beta, "src/index.ts"), "utf8"), "original\n");
  });
});
