import assert from "node:assert/strict";
import { fileLines } from "../../../src/server/engines/text/line-candidates";
import { typeVarName } from "../../../src/server/engines/text/type-var-name";

describe("typeVarName: the name a TypeVar must be given", () => {
  it("after `T = TypeVar(`, the assigned name in quotes, in the file's quotes", () => {
    assert.equal(typeVarName("import typing\n\n_T = typing.TypeVar("), '"_T")');
    assert.equal(typeVarName("x = {'a': 'b'}\nP = ParamSpec("), "'P')", "single quotes where the file writes them");
    assert.equal(typeVarName("Ts: TypeAlias = TypeVarTuple("), '"Ts")', "an annotated assignment");
  });

  it("finishes the name where its start is typed, and offers nothing for another name or another call", () => {
    assert.equal(typeVarName('KT = TypeVar("K'), 'T")');
    assert.equal(typeVarName('KT = TypeVar("V'), undefined);
    assert.equal(typeVarName("T = make_var("), undefined);
    assert.equal(typeVarName("print(TypeVar("), undefined, "not assigned");
  });

  it("is offered first, a sibling's line with bound= beside it", () => {
    const lines = fileLines('_U = TypeVar("_U", bound=Base)\n_T = TypeVar(', "\n").lines;
    assert.deepEqual(lines.slice(0, 2), ['"_T", bound=Base)', '"_T")']);
  });
});
