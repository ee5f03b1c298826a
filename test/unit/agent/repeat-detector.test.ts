import assert from "node:assert/strict";
import { canonicalArguments, RepeatDetector } from "../../../src/core/agent/repeat-detector";

describe("core/agent: repeated call detection", () => {
  it("fires on the third identical call in a row, whatever the key order and spacing", () => {
    const detector = new RepeatDetector();
    assert.equal(detector.record("read_file", '{"path":"a.ts","start_line":1}'), false);
    assert.equal(detector.record("read_file", '{ "start_line": 1, "path": "a.ts" }'), false);
    assert.equal(detector.record("read_file", '{"path": "a.ts",\n "start_line": 1}'), true);
    assert.equal(detector.record("read_file", '{"path":"a.ts","start_line":1}'), true, "stays stuck while it repeats");
  });

  it("resets when a different call comes in between", () => {
    const detector = new RepeatDetector(3);
    detector.record("grep_search", '{"query":"x"}');
    detector.record("grep_search", '{"query":"x"}');
    assert.equal(detector.record("grep_search", '{"query":"y"}'), false);
    assert.equal(detector.record("grep_search", '{"query":"x"}'), false);
    assert.equal(detector.record("list_dir", '{"query":"x"}'), false, "another tool with the same arguments is another call");
  });

  it("honours its limit and compares nested objects canonically", () => {
    const detector = new RepeatDetector(2);
    assert.equal(detector.record("get_errors", '{"paths":["a",{"b":1,"a":2}]}'), false);
    assert.equal(detector.record("get_errors", '{"paths":["a",{"a":2,"b":1}]}'), true);
    assert.equal(canonicalArguments(""), "{}");
    assert.equal(canonicalArguments("{}"), "{}");
    assert.equal(canonicalArguments("{not json"), "{not json");
  });
});
