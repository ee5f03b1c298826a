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
    assert.deepEqual(test("a + b;"), ["a", "b"], "a and b are add's parameters");
    assert.deepEqual(test("scaled;"), ["scaled"], "scaled is a local of scale");
    assert.deepEqual(test("v * factor;"), ["v", "factor"]);
  });

  it("this function's own names, top-level names, imports, globals and properties pass", () => {
    const test = outOfScopeNames(`${typescript}\n  return `, "\n}\n");
    assert.deepEqual(test("value;"), []);
    assert.deepEqual(test("Math.min(Math.max(value, low), high);"), [], "Math is declared nowhere in the file");
    assert.deepEqual(test("clampTo(value, LIMIT);"), []);
    assert.deepEqual(test("add(value, high);"), [], "a top-level function's name is visible, its parameters are not");
    assert.deepEqual(test("this.a + this.b;"), [], "a property is not a variable");
  });

  it("names used below the cursor in the same function pass", () => {
    const test = outOfScopeNames(`${typescript}\n  const `, "\n  return scaled;\n}\n");
    assert.deepEqual(test("scaled = value * 2;"), []);
  });

  it("a name the line declares itself passes, though another function declares it too", () => {
    assert.deepEqual(outOfScopeNames(`${typescript}\n  const `, "\n}\n")("b = value - low;"), [], "const before the cursor");
    assert.deepEqual(outOfScopeNames(`${typescript}\n  `, "\n}\n")("let scaled = value * 2;"), []);
    assert.deepEqual(outOfScopeNames(`${typescript}\n  return `, "\n}\n")("[value].map((v) => v * high);"), [], "an arrow's parameter");
    assert.deepEqual(outOfScopeNames(`${typescript}\n  return `, "\n}\n")("[value].map(v => v * factor);"), ["factor"]);
    assert.deepEqual(outOfScopeNames(`${typescript}\n  const `, "\n}\n")("b = a * 2;"), ["a"], "what it declares with is still checked");
    assert.deepEqual(outOfScopeNames(`${typescript}\n  if (`, "\n}\n")("a) {"), ["a"], "a condition is no parameter list");
  });

  it("the word the cursor is inside reads whole", () => {
    // "sc" + "aled" is scaled, a local of another function; "valu" + "e" is this one's parameter.
    assert.deepEqual(outOfScopeNames(`${typescript}\n  return sc`, "\n}\n")("aled;"), ["scaled"]);
    assert.deepEqual(outOfScopeNames(`${typescript}\n  return valu`, "\n}\n")("e;"), []);
  });

  it("in Python: another function's parameters and assigned locals, not this one's or self's attributes", () => {
    const python = ["import os", "", "def add(a, b):", "    total = a + b", "    return total", "", "class Box:", "    def size(self, width):", "        return "].join("\n");
    const test = outOfScopeNames(python, "\n");
    assert.deepEqual(test("total"), ["total"]);
    assert.deepEqual(test("a + b"), ["a", "b"]);
    assert.deepEqual(test("width * 2"), []);
    assert.deepEqual(test("self.total"), []);
    assert.deepEqual(test("os.getcwd()"), []);
    assert.deepEqual(outOfScopeNames(python.replace(/return $/, ""), "\n")("total = width * 2"), [], "an assignment declares it here");
  });

  it("lineCandidates leaves such lines out: the model writes its own line instead", () => {
    assert.deepEqual(lineCandidates(`${typescript}\n  return `, "\n}\n"), []);
    const sibling = `${typescript}\n  if (value < low) return low;\n  if (value > high) return `;
    assert.deepEqual(lineCandidates(sibling, "\n  return value;\n}\n"), ["low;"]);
  });
});
