import assert from "node:assert/strict";
import { lineCandidates } from "../../../src/server/engines/text/line-candidates";

describe("lineCandidates: lines a one-line answer may copy from its file", () => {
  it("continues as the file did after the longest tail of the line that occurs before, the most recent first", () => {
    const prefix = ["a = f(x, 1)", "b = g(x, 2)", "c = f(x, 3)", "d = f("].join("\n");
    assert.deepEqual(lineCandidates(prefix, ""), ["x, 3)", "x, 1)"]);
  });

  it("looks below the cursor too, the nearest line first, after the lines above", () => {
    const prefix = "one.set(1)\nsecond.set";
    assert.deepEqual(lineCandidates(prefix, "\nthree.set(3)\nfour.set(4)\n"), ["(1)", "(3)", "(4)"]);
  });

  it("only the longest tail that occurs decides: a shorter one is not tried when its continuations are of no use", () => {
    // "value" occurs before, at the end of a line: nothing follows it there.
    assert.deepEqual(lineCandidates("return value\nconst x = some(value", ""), []);
  });

  it("offers nothing for tails under four characters or of white space only", () => {
    assert.deepEqual(lineCandidates("abc\nab", ""), []);
    assert.deepEqual(lineCandidates("x = 1\n    ", ""), []);
    assert.deepEqual(lineCandidates("", ""), []);
  });

  it("what follows the cursor on its line must end the candidate, and comes off it", () => {
    const prefix = "call(alpha, beta)\ncall(gamma)\ncall(";
    assert.deepEqual(lineCandidates(prefix, ")\n"), ["gamma", "alpha, beta"]);
    assert.deepEqual(lineCandidates(prefix, "]\n"), []);
  });

  it("drops duplicates, the empty line and lines too long to copy whole; at most six", () => {
    const repeated = Array.from({ length: 8 }, (_, i) => `log(${i})`).join("\n");
    assert.deepEqual(lineCandidates(`${repeated}\nlog(`, ""), ["7)", "6)", "5)", "4)", "3)", "2)"]);
    assert.deepEqual(lineCandidates("x = run(1)\nx = run(1)\nx = ru", ""), ["n(1)"]);
    assert.deepEqual(lineCandidates(`key = ${"a".repeat(250)}\nkey = `, ""), []);
  });

  it("never offers the line's own end as a match of itself", () => {
    assert.deepEqual(lineCandidates("aaaaa", ""), ["a"]);
    assert.deepEqual(lineCandidates("const x", ""), []);
  });

  it("passes over what comments say where the cursor's line is code, and reads them where it is a comment", () => {
    const prefix = ["/**", " * Each layer of the current class.", " */", "y = current + 1;", "// the current layer", "\tlet current"];
    assert.deepEqual(lineCandidates(prefix.join("\n"), ""), [" + 1;"]);
    assert.deepEqual(lineCandidates("# Python's comments too: the current class.\nlet current", "\n"), [], "no code line continues the tail");
    assert.deepEqual(lineCandidates(["// the current layer", "x = 1;", "// the current"].join("\n"), ""), [" layer"]);
    assert.deepEqual(lineCandidates(["class A {", "\t#count = 0;", "\tinc() { this.#count += 1; }", "\t#cou"].join("\n"), ""), ["nt = 0;"], "a private #name is code");
  });
});
