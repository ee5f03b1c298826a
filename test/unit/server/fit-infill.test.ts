import assert from "node:assert/strict";
import type { Token } from "node-llama-cpp";
import { fitInfill, PREFIX_CUT_STEP } from "../../../src/server/engines/text/fit-infill";

const tokens = (n: number, from = 0) => Array.from({ length: n }, (_, i) => (from + i) as Token);

describe("fitInfill", () => {
  it("keeps a prompt that fits as it is", () => {
    assert.deepEqual(fitInfill(tokens(10), tokens(5, 100), 15), { prefix: tokens(10), suffix: tokens(5, 100) });
  });

  it("keeps the prefix's end and the suffix's start, the suffix at most a quarter of the room", () => {
    const { prefix, suffix } = fitInfill(tokens(1000), tokens(500, 5000), 400);
    assert.deepEqual(suffix, tokens(100, 5000));
    assert.ok(prefix.length <= 300 && prefix.length > 300 - PREFIX_CUT_STEP);
    assert.equal(prefix.at(-1), 999);
  });

  it("gives the suffix the room the prefix leaves", () => {
    const { prefix, suffix } = fitInfill(tokens(20), tokens(500, 5000), 400);
    assert.equal(prefix.length, 20);
    assert.deepEqual(suffix, tokens(380, 5000));
  });

  it("cuts the prefix in steps, so its first token stays while the user types", () => {
    const starts = new Set<number>();
    for (let typed = 0; typed < 100; typed++) starts.add(fitInfill(tokens(1000 + typed), tokens(50, 5000), 600).prefix[0]!);
    assert.ok(starts.size <= 2, `the prefix started at ${starts.size} places`);
    for (let typed = 0; typed < 100; typed++) assert.ok(fitInfill(tokens(1000 + typed), tokens(50, 5000), 600).prefix.length + 50 <= 600);
  });

  it("never returns more than the room, even with none", () => {
    for (const room of [0, 1, 3, 50]) {
      const { prefix, suffix } = fitInfill(tokens(300), tokens(300, 1000), room);
      assert.ok(prefix.length + suffix.length <= room, `room ${room}`);
    }
  });
});
