import assert from "node:assert/strict";
import { lineCandidates } from "../../../src/server/engines/text/line-candidates";
import { outOfScopeNames } from "../../../src/server/engines/text/out-of-scope-names";

const typescript = [
  'import { clampTo } from "./range";',
  "const LIMIT = 10;",
  "export function add(a: number, b: number): number {",
  "  return a + b;",
  "}",
  "",
  "export function scale(values: number[], factor: number): number[] {",
  "  const scaled = values.map((v) => v * factor);",
  "  return scaled;",
  "}",
  "",
  "export function clamp(value: number, low: number, high: number): number {",
].join("\n");

describe("outOfScopeNames: copied lines that bring another function's names along", () => {
  it("a line using another function's parameters is out of scope in this one", () => {
    const test = outOfScopeNames(`${typescript}\n  return `, "\n}\n");
    assert.equal(test("a + b;"), true, "a and b are add's parameters");
    assert.equal(test("scaled;"), true, "scaled is a local of scale");
    assert.equal(test("v * factor;"), true);
  });

  it("this function's own names, top-level names, imports, globals and properties pass", () => {
    const test = outOfScopeNames(`${typescript}\n  return `, "\n}\n");
    assert.equal(test("value;"), false);
    assert.equal(test("Math.min(Math.max(value, low), high);"), false, "Math is declared nowhere in the file");
    assert.equal(test("clampTo(value, LIMIT);"), false);
    assert.equal(test("add(value, high);"), false, "a top-level function's name is visible, its parameters are not");
    assert.equal(test("this.a + this.b;"), false, "a property is not a variable");
  });

  it("names used below the cursor in the same function pass", () => {
    const test = outOfScopeNames(`${typescript}\n  const `, "\n  return scaled;\n}\n");
    assert.equal(test("scaled = value * 2;"), false);
  });

  it("the word the cursor is inside reads whole", () => {
    // "sc" + "aled" is scaled, a local of another function; "valu" + "e" is this one's parameter.
    assert.equal(outOfScopeNames(`${typescript}\n  return sc`, "\n}\n")("aled;"), true);
    assert.equal(outOfScopeNames(`${typescript}\n  return valu`, "\n}\n")("e;"), false);
  });

  it("in Python: another function's parameters and assigned locals, not this one's or self's attributes", () => {
    const python = ["import os", "", "def add(a, b):", "    total = a + b", "    return total", "", "class Box:", "    def size(self, width):", "        return "].join("\n");
    const test = outOfScopeNames(python, "\n");
    assert.equal(test("total"), true);
    assert.equal(test("a + b"), true);
    assert.equal(test("width * 2"), false);
    assert.equal(test("self.total"), false);
    assert.equal(test("os.getcwd()"), false);
  });

  it("lineCandidates leaves such lines out: the model writes its own line instead", () => {
    assert.deepEqual(lineCandidates(`${typescript}\n  return `, "\n}\n"), []);
    const sibling = `${typescript}\n  if (value < low) return low;\n  if (value > high) return `;
    assert.deepEqual(lineCandidates(sibling, "\n  return value;\n}\n"), ["low;"]);
  });
});
