import assert from "node:assert/strict";
import { decidedLines, shapeOf, shownLines, hunkStarts, type Decision } from "../../../../src/core/edit/hunks";
import { diffLines, StreamingLineDiff } from "../../../../src/core/edit/streaming-diff";

const original = ["function total(values) {", "  let result = 0;", "  for (const v of values) {", "    result += v;", "  }", "  return result;", "}"];
const proposed = ["function total(values) {", "  let sum = 0;", "  for (const v of values) {", "    sum += v;", "  }", "  return sum;", "}"];

describe("core/edit: streaming line diff and hunks", () => {
  it("matches unchanged lines and makes one hunk per changed run", () => {
    const shape = shapeOf(diffLines(original, proposed));
    assert.deepEqual(shape.hunks, [
      { originalStart: 1, originalEnd: 2, added: ["  let sum = 0;"] },
      { originalStart: 3, originalEnd: 4, added: ["    sum += v;"] },
      { originalStart: 5, originalEnd: 6, added: ["  return sum;"] },
    ]);
  });

  it("is stable while it streams: the rows after each line start with the rows decided before", () => {
    const diff = new StreamingLineDiff(original);
    let previous: string[] = [];
    for (const line of proposed) {
      diff.push(line);
      const now = diff.rows.map((r) => JSON.stringify(r));
      assert.deepEqual(now.slice(0, previous.length), previous);
      previous = now;
    }
    diff.finish();
    assert.deepEqual(diff.rows.map((r) => JSON.stringify(r)).slice(0, previous.length), previous);
  });

  it("leaves the original lines not reached yet pending, and removes them when the proposal ends early", () => {
    const diff = new StreamingLineDiff(original);
    diff.push(original[0]!);
    diff.push("  // sums");
    assert.equal(diff.pendingFrom, 1);
    const shape = shapeOf(diff.rows);
    const shown = shownLines(original, shape, [], diff.pendingFrom);
    assert.deepEqual(shown.map((l) => l.kind), ["same", "added", ...original.slice(1).map(() => "pending")]);
    diff.finish();
    assert.deepEqual(shapeOf(diff.rows).hunks, [{ originalStart: 1, originalEnd: 7, added: ["  // sums"] }]);
  });

  it("matches a distinctive line further down, removing the lines skipped; a lone brace only matches the next line", () => {
    const rows = diffLines(["a();", "b();", "}", "call(1);"], ["}", "call(1);"]);
    assert.deepEqual(rows, [
      { kind: "added", text: "}" },
      { kind: "removed", original: 0 },
      { kind: "removed", original: 1 },
      { kind: "removed", original: 2 },
      { kind: "same", original: 3 },
    ]);
  });

  it("treats trailing whitespace as unchanged and keeps the original line", () => {
    const shape = shapeOf(diffLines(["x = 1;   ", "y = 2;"], ["x = 1;", "y = 3;"]));
    assert.deepEqual(decidedLines(["x = 1;   ", "y = 2;"], shape, ["accepted"]), ["x = 1;   ", "y = 3;"]);
  });

  it("shows undecided hunks as removed then added lines, decided ones as they will be", () => {
    const shape = shapeOf(diffLines(original, proposed));
    const decisions: Decision[] = ["accepted", "pending", "rejected"];
    const shown = shownLines(original, shape, decisions, original.length);
    assert.deepEqual(
      shown.map((l) => `${l.kind}:${l.text}`),
      ["same:function total(values) {", "same:  let sum = 0;", "same:  for (const v of values) {", "removed:    result += v;", "added:    sum += v;", "same:  }", "same:  return result;", "same:}"],
    );
    assert.deepEqual([...hunkStarts(shown)], [[1, 3]]);
  });

  it("applies exactly the accepted hunks", () => {
    const shape = shapeOf(diffLines(original, proposed));
    assert.deepEqual(decidedLines(original, shape, ["rejected", "accepted", "pending"]), [...original.slice(0, 3), "    sum += v;", ...original.slice(4)]);
    assert.deepEqual(decidedLines(original, shape, ["accepted", "accepted", "accepted"]), proposed);
    assert.deepEqual(decidedLines(original, shape, ["rejected", "rejected", "rejected"]), original);
  });

  it("handles pure insertions and pure deletions", () => {
    const inserted = shapeOf(diffLines(["a", "b"], ["a", "new line", "b"]));
    assert.deepEqual(inserted.hunks, [{ originalStart: 1, originalEnd: 1, added: ["new line"] }]);
    assert.deepEqual(decidedLines(["a", "b"], inserted, ["accepted"]), ["a", "new line", "b"]);
    const deleted = shapeOf(diffLines(["alpha()", "gone()", "beta()"], ["alpha()", "beta()"]));
    assert.deepEqual(deleted.hunks, [{ originalStart: 1, originalEnd: 2, added: [] }]);
    assert.deepEqual(decidedLines(["alpha()", "gone()", "beta()"], deleted, ["accepted"]), ["alpha()", "beta()"]);
  });
});
