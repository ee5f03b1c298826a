import assert from "node:assert/strict";
import { chunkText, definedName } from "../../../../src/core/context/chunker";

const fn = (name: string, body: number) => [`export function ${name}() {`, ...Array.from({ length: body }, (_, i) => `  step${i}();`), "}", ""];

describe("chunker", () => {
  it("ends chunks at blank lines before top-level code, keeping short functions whole", () => {
    const text = [...fn("first", 10), ...fn("second", 10), ...fn("third", 3)].join("\n");
    const chunks = chunkText("src/a.ts", text);
    assert.deepEqual(chunks.map((c) => [c.startLine, c.endLine]), [[1, 12], [14, 25], [27, 31]]);
    assert.deepEqual(chunks.map((c) => c.defines), [["first"], ["second"], ["third"]]);
    assert.equal(chunks[1]!.text.split("\n")[0], "export function second() {");
  });

  it("cuts a long function at the line limit and covers every line once", () => {
    const text = fn("long", 100).join("\n");
    const chunks = chunkText("a.ts", text, { maxLines: 40 });
    assert.deepEqual(chunks.map((c) => [c.startLine, c.endLine]), [[1, 40], [41, 80], [81, 102]]);
  });

  it("reads CRLF files and skips blank-only chunks", () => {
    const chunks = chunkText("a.py", "def a():\r\n    return 1\r\n\r\n\r\n");
    assert.equal(chunks.length, 1);
    assert.equal(chunks[0]!.text, "def a():\n    return 1");
  });

  it("knows the names definitions introduce in several languages", () => {
    assert.equal(definedName("export async function checkout(cart) {"), "checkout");
    assert.equal(definedName("def shipping_cost(weight_kg, country):"), "shipping_cost");
    assert.equal(definedName("export class Cart {"), "Cart");
    assert.equal(definedName("  subtotal(): number {"), "subtotal");
    assert.equal(definedName("pub fn parse(input: &str) -> Result<()> {"), "parse");
    assert.equal(definedName("  if (ready) {"), undefined);
    assert.equal(definedName("  return total;"), undefined);
  });
});
