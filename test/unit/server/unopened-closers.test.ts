import assert from "node:assert/strict";
import { lineCandidates } from "../../../src/server/engines/text/line-candidates";
import { unopenedClosers } from "../../../src/server/engines/text/unopened-closers";

describe("unopenedClosers: a line cannot close what it never opened", () => {
  it("refuses a line that closes one bracket more than its line opens, where the line starts a statement", () => {
    const check = unopenedClosers("\t}\n\n\t_clampZoom(");
    assert.equal(check("zoom));"), true);
    assert.equal(check("zoom) {"), false);
    assert.equal(unopenedClosers("function f() {\n\tlet current = ")("Object.getPrototypeOf(current)) !== null) {"), true, "below a block's `{`");
    assert.equal(unopenedClosers("x = 1;\ny = ")("f(a), g(b);"), false, "balanced");
  });

  it("leaves alone a line that goes on from the one above, or starts by closing", () => {
    assert.equal(unopenedClosers("call(a,\n\tb")(", c));"), false, "an argument list left open above");
    assert.equal(unopenedClosers("x = [\n  1,\n  ")("2]);"), false, "the line above ends with a comma");
    assert.equal(unopenedClosers("foo(function () {\n\treturn 1;\n}")(");"), false, "the line starts with `}`");
  });

  it("counts no bracket inside a string or a comment", () => {
    const check = unopenedClosers("a = 1;\nconst s = ");
    assert.equal(check("')' + x;"), false);
    assert.equal(check("x; // (see above))"), false);
    assert.equal(check("`${a})` + b);"), true);
  });

  it("keeps such copies out of the candidates, and the line's other copies in", () => {
    const prefix = "\tthis._setZoom(this._clampZoom(zoom));\n\t}\n\n\t_clampZoom(";
    assert.deepEqual(lineCandidates(prefix, "\n"), []);
    assert.deepEqual(lineCandidates("\tfoo(a);\n\tfoo(b));\n}\n\tfoo(", "\n"), ["a);"], "the copy that over-closes goes, the other stays");
  });
});
