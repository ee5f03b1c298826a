import assert from "node:assert/strict";
import { readRecentPrompts, rememberPrompt } from "../../../../src/core/image/recent-prompts";

describe("recent image prompts", () => {
  it("puts the newest first, once, with its spacing tidied", () => {
    assert.deepEqual(rememberPrompt(["b", "a  cat", "c"], " a cat "), ["a cat", "b", "c"]);
    assert.deepEqual(rememberPrompt([], "x"), ["x"]);
  });

  it("keeps at most the limit and ignores a blank prompt", () => {
    assert.deepEqual(rememberPrompt(["a", "b", "c"], "d", 3), ["d", "a", "b"]);
    assert.deepEqual(rememberPrompt(["a", "b"], "   "), ["a", "b"]);
  });

  it("reads back only strings from what was stored", () => {
    assert.deepEqual(readRecentPrompts(["a", 3, null, "", "b"]), ["a", "b"]);
    assert.deepEqual(readRecentPrompts(undefined), []);
    assert.deepEqual(readRecentPrompts({ 0: "a" }), []);
  });
});
