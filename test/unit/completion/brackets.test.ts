import assert from "node:assert/strict";
import { closedAfter, scanBrackets, stateAtEnd, syntaxFor } from "../../../src/core/completion/brackets";
import { closerChange, suffixHeadOf } from "../../../src/core/completion/suffix-head";

const ts = syntaxFor("typescript");
const py = syntaxFor("python");
const open = (text: string, syntax = ts) => stateAtEnd(text, syntax, true).frames.join(" ");

describe("bracket and string scanner", () => {
  it("tracks brackets, strings and template interpolations at the cursor", () => {
    assert.equal(open("foo(a, [1, {b: "), "( [ {");
    assert.equal(open('log("x'), '( "');
    assert.equal(open("const s = `a ${f(x"), "` ${ (");
    assert.equal(open("const s = `a ${f(x)} b"), "`");
  });

  it("ignores brackets in strings and comments, and escaped quotes", () => {
    assert.equal(open('f(")", \'(\', "\\")\\"" // )'), "(");
    assert.equal(open("g(/* ) */ x"), "(");
    assert.equal(open("h( # )\n", py), "(");
    assert.equal(open('"""doc ( """\nk(', py), "(");
  });

  it("an apostrophe after a word is not a quote, except Python's string prefixes", () => {
    assert.equal(open("// it's\nx = ("), "(");
    assert.equal(open("msg = don't(", ts), "(");
    assert.equal(open("print(f'", py), "( '");
  });

  it("a one-line string left open ends with its line; a template string does not", () => {
    assert.equal(open('a = "open\nb = ('), "(");
    assert.equal(open("a = `open\nb = ("), "`");
  });

  it("reports the closes of what was open at the start, in order", () => {
    const closes: string[] = [];
    const start = stateAtEnd("x = f(g(", ts, true);
    const end = scanBrackets("1), h(2));", ts, start, { onCloseOuter: (frame, at) => closes.push(`${frame}@${at}`) });
    assert.deepEqual(closes, ["(@2", "(@9"]);
    assert.equal(end.frames.length, 0);
    assert.equal(end.low, 0);
  });

  it("tells which open frames the text after the cursor closes, on the line and in the file", () => {
    const state = stateAtEnd("function f() {\n  if (a) {\n    g(", ts, true);
    assert.deepEqual(closedAfter(state, ")\n  }\n}\n", ts), { onLine: 1, inFile: 3 });
    assert.deepEqual(closedAfter(state, "\n", ts), { onLine: 0, inFile: 0 });
  });
});

describe("closer changes after the cursor", () => {
  const before = suffixHeadOf("\n}\n", 200);
  it("finds closers the editor inserted and closers typed over", () => {
    assert.deepEqual(closerChange(before, "\n}\n", 0), { inserted: 0, typedOver: 0 });
    assert.deepEqual(closerChange(before, ")\n}\n", 0), { inserted: 1, typedOver: 0 });
    assert.deepEqual(closerChange(before, '")\n}\n', 0), { inserted: 2, typedOver: 0 });
    assert.deepEqual(closerChange(suffixHeadOf(")\n}\n", 200), "\n}\n", 1), { inserted: 0, typedOver: 1 });
  });

  it("any other change is not one", () => {
    assert.equal(closerChange(before, "x\n}\n", 0), undefined);
    assert.equal(closerChange(before, "}\n", 0), undefined, "text typed over that the suggestion does not replace");
    assert.equal(closerChange(suffixHeadOf("a)\n", 200), ")\n", 2), undefined, "only closers are typed over");
  });
});
