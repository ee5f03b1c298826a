import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CheckpointStore } from "../../../src/extension/agent/checkpoint-store";
import { TempDirs } from "../../harness/temp-dirs";

describe("extension/agent: the last task's checkpoint after Keep of one file, a crash or a damaged manifest", () => {
  const temp = new TempDirs();
  after(() => temp.removeAll());
  const bytes = (text: string) => ({ existed: true as const, bytes: new TextEncoder().encode(text) });

  /** A task that edited a.ts and b.ts; the store's folder and the workspace. */
  async function taskThatEditedTwo(): Promise<{ store: CheckpointStore; folder: string; root: string }> {
    const root = temp.make("ws");
    const folder = join(temp.make("storage"), "agent-checkpoint");
    writeFileSync(join(root, "a.ts"), "ORIGINAL A\n");
    writeFileSync(join(root, "b.ts"), "ORIGINAL B\n");
    const store = await CheckpointStore.open(folder);
    await store.begin({ chatId: "c", turnId: "t" }, root);
    await store.remember("a.ts", bytes("ORIGINAL A\n"));
    await store.remember("b.ts", bytes("ORIGINAL B\n"));
    writeFileSync(join(root, "a.ts"), "agent A\n");
    writeFileSync(join(root, "b.ts"), "agent B\n");
    return { store, folder, root };
  }

  it("Keep of a.ts, then a reload that finds the manifest from before it (a crash): Undo never writes b.ts's original into a.ts", async () => {
    const { store, folder, root } = await taskThatEditedTwo();
    const before = readFileSync(join(folder, "manifest.json"), "utf8");
    await store.forget(["a.ts"]);
    writeFileSync(join(folder, "manifest.json"), before);

    const reloaded = await CheckpointStore.open(folder);
    await reloaded.undo(root);

    assert.notEqual(readFileSync(join(root, "a.ts"), "utf8"), "ORIGINAL B\n", "a.ts got b.ts's original");
    assert.equal(readFileSync(join(root, "b.ts"), "utf8"), "ORIGINAL B\n");
  });

  it("Keep of a.ts leaves no copy of its original behind, and Undo after a reload restores b.ts", async () => {
    const { store, folder, root } = await taskThatEditedTwo();
    await store.forget(["a.ts"]);

    const stored = readdirSync(folder).filter((n) => n !== "manifest.json").map((n) => readFileSync(join(folder, n), "utf8"));
    assert.deepEqual(stored, ["ORIGINAL B\n"], "only b.ts's original is kept");
    const reloaded = await CheckpointStore.open(folder);
    assert.deepEqual(reloaded.paths(), ["b.ts"]);
    assert.deepEqual(await reloaded.undo(root), { done: ["b.ts"], failed: [] });
    assert.equal(readFileSync(join(root, "b.ts"), "utf8"), "ORIGINAL B\n");
    assert.equal(readFileSync(join(root, "a.ts"), "utf8"), "agent A\n", "the kept file stays as the task left it");
  });

  it("a damaged manifest is kept aside with the originals, and the log says where", async () => {
    const { folder } = await taskThatEditedTwo();
    writeFileSync(join(folder, "manifest.json"), '{"owner":{"chatId":"c","tu');
    const warnings: string[] = [];

    const reloaded = await CheckpointStore.open(folder, { warn: (m) => warnings.push(m) });

    assert.deepEqual(reloaded.paths(), []);
    const parent = join(folder, "..");
    const aside = readdirSync(parent).filter((n) => n.startsWith("agent-checkpoint.corrupt-"));
    assert.equal(aside.length, 1, `kept aside: ${readdirSync(parent).join(", ")}`);
    const kept = readdirSync(join(parent, aside[0]!)).map((n) => readFileSync(join(parent, aside[0]!, n), "utf8"));
    assert.ok(kept.includes("ORIGINAL A\n") && kept.includes("ORIGINAL B\n"), "the originals are kept with it");
    assert.equal(existsSync(join(folder, "manifest.json")), false);
    assert.ok(warnings.some((w) => w.includes(aside[0]!)), `the log names the folder: ${warnings.join(" | ")}`);
  });
});
