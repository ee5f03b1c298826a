import assert from "node:assert/strict";
import { fitToBudget } from "../../../../src/core/context/budget-fit";

const lines = (n: number, width = 19) => Array.from({ length: n }, (_, i) => `${String(i).padStart(3, "0")}${"x".repeat(width - 3)}`).join("\n");

describe("budget fitting", () => {
  it("keeps everything that fits, unchanged", () => {
    const result = fitToBudget([{ id: "a", text: lines(10), relevance: 1 }], 1000, 0.5);
    assert.deepEqual(result.cuts, []);
    assert.equal(result.items[0]!.text, lines(10));
  });

  it("shortens the least relevant item first, to whole lines, and reports the cut", () => {
    // 100 lines of 20 characters at 0.5 tokens per character: about 1000 tokens each.
    const items = [
      { id: "mentioned", text: lines(100), relevance: 2 },
      { id: "found", text: lines(100), relevance: 1 },
    ];
    const result = fitToBudget(items, 1500, 0.5);
    assert.equal(result.items.find((i) => i.id === "mentioned")!.text, lines(100));
    const found = result.items.find((i) => i.id === "found")!;
    assert.equal(found.keptLines, 50);
    assert.equal(found.text, lines(50));
    assert.deepEqual(result.cuts, [{ id: "found", dropped: false, keptLines: 50, totalLines: 100 }]);
    assert.ok(result.tokens <= 1500);
  });

  it("drops an item that would keep too little to be useful, largest first among equals", () => {
    const items = [
      { id: "small", text: lines(10), relevance: 1 },
      { id: "large", text: lines(60), relevance: 1 },
      { id: "pinned", text: lines(40), relevance: 2 },
    ];
    const result = fitToBudget(items, 520, 0.5);
    assert.deepEqual(result.cuts.map((c) => [c.id, c.dropped]), [["large", true]]);
    assert.deepEqual(result.items.map((i) => i.id), ["small", "pinned"]);
  });
});
