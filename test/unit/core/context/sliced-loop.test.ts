import assert from "node:assert/strict";
import { slicedLoop } from "../../../../src/core/context/sliced-loop";

describe("sliced loop", () => {
  it("yields to the host each time a slice has run its time, and reports progress", async () => {
    let clock = 0;
    const done: number[] = [];
    let yields = 0;
    const finished = await slicedLoop([1, 2, 3, 4, 5], () => void (clock += 3), {
      sliceMs: 5,
      now: () => clock,
      yieldToHost: async () => void yields++,
      onSlice: (n) => void done.push(n),
    });
    assert.equal(finished, true);
    assert.deepEqual(done, [2, 4]);
    assert.equal(yields, 2);
  });

  it("stops when onSlice says so", async () => {
    let clock = 0;
    const seen: number[] = [];
    const finished = await slicedLoop([1, 2, 3, 4], (n) => void (seen.push(n), (clock += 10)), { sliceMs: 5, now: () => clock, yieldToHost: async () => {}, onSlice: () => false });
    assert.equal(finished, false);
    assert.deepEqual(seen, [1]);
  });
});
