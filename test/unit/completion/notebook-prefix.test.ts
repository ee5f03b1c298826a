import * as assert from "node:assert/strict";
import { maxPrefixChars } from "../../../src/core/completion/document-window";
import { withEarlierCells } from "../../../src/core/completion/notebook-prefix";

describe("withEarlierCells (ghost text in a notebook cell)", () => {
  it("puts the code cells above first, each ending in a blank line, blank ones left out", () => {
    const got = withEarlierCells(["import pandas as pd\r\n", "   ", "df = pd.read_csv('sales.csv')\n\n\n"], "df.", 0);
    assert.deepEqual(got, { prefix: "import pandas as pd\n\ndf = pd.read_csv('sales.csv')\n\ndf.", prefixOffset: 0 });
  });

  it("a first cell, or none above, is the cell's prefix as it was", () => {
    assert.deepEqual(withEarlierCells([], "x = 1\ny", 0), { prefix: "x = 1\ny", prefixOffset: 0 });
  });

  it("many cells above: a window of them, whose start stays in place while the user types in the cell", () => {
    const earlier = Array.from({ length: 80 }, (_, i) => `value_${i} = ${"1 + ".repeat(120)}1`);
    const first = withEarlierCells(earlier, "total = ", 0);
    const typed = withEarlierCells(earlier, "total = value_3", 0);
    assert.ok(first.prefix.length <= maxPrefixChars + 4096, `at most a window: ${first.prefix.length}`);
    assert.ok(first.prefix.endsWith(`value_79 = ${"1 + ".repeat(120)}1\n\ntotal = `));
    assert.ok(first.prefixOffset > 0);
    assert.equal(typed.prefixOffset, first.prefixOffset);
    assert.equal(typed.prefix, `${first.prefix}value_3`);
  });

  it("a cell cut already (its own text is long) keeps its text, its offset counting the cells above", () => {
    assert.deepEqual(withEarlierCells(["a = 1"], "tail of a long cell", 8192), { prefix: "tail of a long cell", prefixOffset: 7 + 8192 });
  });
});
