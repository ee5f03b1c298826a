import assert from "node:assert/strict";
import { isCancelledError } from "../../../../src/core/base/cancellation";
import { debounce, delay } from "../../../../src/core/base/delay";

describe("delay", () => {
  it("resolves after the wait", async () => {
    await delay(1);
  });

  it("rejects with a cancellation as soon as the signal aborts, and at once if already aborted", async () => {
    const controller = new AbortController();
    const waiting = delay(60_000, controller.signal);
    controller.abort();
    await assert.rejects(waiting, isCancelledError);
    await assert.rejects(delay(60_000, AbortSignal.abort()), isCancelledError);
  });
});

describe("debounce", () => {
  it("runs only the last call of a burst, with its arguments", async () => {
    const calls: number[] = [];
    const debounced = debounce((n: number) => calls.push(n), 5);
    debounced(1);
    debounced(2);
    debounced(3);
    assert.ok(debounced.pending);
    await delay(30);
    assert.deepEqual(calls, [3]);
    assert.equal(debounced.pending, false);
  });

  it("flush runs the pending call now; cancel and dispose drop it", async () => {
    const calls: string[] = [];
    const debounced = debounce((s: string) => calls.push(s), 5);
    debounced("flushed");
    debounced.flush();
    assert.deepEqual(calls, ["flushed"]);
    debounced("cancelled");
    debounced.cancel();
    debounced("disposed");
    debounced.dispose();
    debounced.flush();
    await delay(30);
    assert.deepEqual(calls, ["flushed"]);
  });
});
