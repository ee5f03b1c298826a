import assert from "node:assert/strict";
import { DeltaQueue, type TextDelta } from "../../../../src/core/chat/delta-queue";
import { waitFor } from "../../../harness/wait-for";

describe("delta queue (streamed text to the webview)", () => {
  it("sends at once when idle, merges what arrives while a message is in flight, keeps order", async () => {
    const sent: TextDelta[] = [];
    const deliveries: (() => void)[] = [];
    const queue = new DeltaQueue((delta) => {
      sent.push(delta);
      return new Promise<void>((resolve) => deliveries.push(resolve));
    });
    queue.push({ chatId: "c", turnId: "t", offset: 0, text: "a" });
    assert.deepEqual(sent.map((d) => d.text), ["a"], "the first piece goes out at once");
    queue.push({ chatId: "c", turnId: "t", offset: 1, text: "b" });
    queue.push({ chatId: "c", turnId: "t", offset: 2, text: "c" });
    queue.push({ chatId: "c", turnId: "u", offset: 0, text: "x" });
    assert.equal(sent.length, 1, "nothing more while one is in flight");
    deliveries.shift()!();
    await Promise.resolve();
    await Promise.resolve();
    assert.deepEqual(sent.at(-1), { chatId: "c", turnId: "t", offset: 1, text: "bc" });
    deliveries.shift()!();
    await waitFor("the next turn's delta sent", () => sent.at(-1), (d) => d?.turnId === "u");
    assert.deepEqual(sent.at(-1), { chatId: "c", turnId: "u", offset: 0, text: "x" });
    deliveries.shift()!();
    // Nothing is left to send: after the pending callbacks have run, still three.
    await new Promise((r) => setImmediate(r));
    assert.equal(sent.length, 3);
  });

  it("a failed delivery does not stall the queue", async () => {
    const sent: string[] = [];
    const queue = new DeltaQueue((delta) => {
      sent.push(delta.text);
      return Promise.reject(new Error("view gone"));
    });
    queue.push({ chatId: "c", turnId: "t", offset: 0, text: "a" });
    queue.push({ chatId: "c", turnId: "t", offset: 1, text: "b" });
    // The second goes out once the first has failed: nothing else would send it.
    await waitFor("the second delta sent", () => sent.length, (n) => n === 2);
    assert.deepEqual(sent, ["a", "b"]);
  });
});
