import assert from "node:assert/strict";
import type { Token } from "node-llama-cpp";
import { lookupPrediction } from "../../../src/server/engines/text/prompt-lookup";

const t = (...ids: number[]) => ids as Token[];

describe("lookupPrediction (input lookup)", () => {
  it("guesses what followed the last tokens where they occurred before", () => {
    assert.deepEqual(lookupPrediction(t(1, 2, 3, 4, 5, 9, 1, 2, 3), 2), [4, 5]);
  });

  it("prefers the longest match, then the most recent one", () => {
    // [2, 3] occurs twice; [1, 2, 3] only once, followed by 7.
    assert.deepEqual(lookupPrediction(t(1, 2, 3, 7, 8, 2, 3, 6, 0, 1, 2, 3), 1), [7]);
    assert.deepEqual(lookupPrediction(t(2, 3, 7, 5, 2, 3, 6, 0, 2, 3), 1), [6]);
  });

  it("guesses nothing without a match of two tokens, or when asked for none", () => {
    assert.deepEqual(lookupPrediction(t(1, 2, 3, 4, 5, 6), 3), []);
    assert.deepEqual(lookupPrediction(t(5, 1, 5), 3), []);
    assert.deepEqual(lookupPrediction(t(1, 2, 3, 1, 2), 0), []);
    assert.deepEqual(lookupPrediction(t(), 3), []);
  });

  it("never guesses past the end of the context", () => {
    assert.deepEqual(lookupPrediction(t(1, 2, 1, 2), 5), [1, 2]);
  });
});
