import assert from "node:assert/strict";
import { addedLines, Checkpoint, lineDelta } from "../../../src/core/agent/checkpoint";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("core/agent: checkpoint and undo arithmetic", () => {
  it("keeps each file's state before the task's first write, not later ones", () => {
    const checkpoint = new Checkpoint();
    checkpoint.remember("src/cart.js", { existed: true, bytes: bytes("v1") });
    checkpoint.remember("src/cart.js", { existed: true, bytes: bytes("v2 (after the first edit)") });
    checkpoint.remember("src/new.js", { existed: false });
    checkpoint.remember("src/new.js", { existed: true, bytes: bytes("written by the task") });
    assert.deepEqual(checkpoint.paths(), ["src/cart.js", "src/new.js"]);
    assert.deepEqual(checkpoint.undoPlan(), [
      { path: "src/cart.js", action: "restore", bytes: bytes("v1") },
      { path: "src/new.js", action: "delete" },
    ]);
  });

  it("restores the exact bytes (a BOM, CRLF, invalid UTF-8), copied when remembered", () => {
    const checkpoint = new Checkpoint();
    const original = new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0x0d, 0x0a, 0xff, 0x00]);
    checkpoint.remember("data.bin", { existed: true, bytes: original });
    original.fill(0); // the caller reuses its buffer
    const [step] = checkpoint.undoPlan();
    assert.deepEqual(step, { path: "data.bin", action: "restore", bytes: new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0x0d, 0x0a, 0xff, 0x00]) });
  });

  it("plans and forgets per file (Keep or Undo of one row) or for the whole task", () => {
    const checkpoint = new Checkpoint();
    checkpoint.remember("a", { existed: true, bytes: bytes("a") });
    checkpoint.remember("b", { existed: false });
    checkpoint.remember("c", { existed: true, bytes: bytes("c") });
    assert.deepEqual(checkpoint.undoPlan(["b", "unknown"]), [{ path: "b", action: "delete" }]);
    checkpoint.forget(["b"]);
    assert.equal(checkpoint.has("b"), false);
    assert.deepEqual(checkpoint.paths(), ["a", "c"]);
    checkpoint.remember("b", { existed: true, bytes: bytes("now it exists") });
    assert.deepEqual(checkpoint.undoPlan(["b"]), [{ path: "b", action: "restore", bytes: bytes("now it exists") }], "after forgetting, the next write is a first write again");
    checkpoint.forget();
    assert.deepEqual(checkpoint.paths(), []);
    assert.deepEqual(checkpoint.undoPlan(), []);
  });

  it("counts added and removed lines for the file rows", () => {
    const before = "function total(values) {\n  let result = 0;\n  for (const v of values) result += v;\n  return result;\n}\n";
    const after = "function total(values) {\n  let sum = 0;\n  for (const v of values) sum += v;\n  return sum;\n}\n";
    assert.deepEqual(lineDelta(before, after), { added: 3, removed: 3 });
    assert.deepEqual(lineDelta("a\nb\n", "a\nb\nc\n"), { added: 1, removed: 0 });
    assert.deepEqual(lineDelta("", "one\ntwo"), { added: 2, removed: 0 }, "a created file");
    assert.deepEqual(lineDelta("one\ntwo\n", ""), { added: 0, removed: 2 });
    assert.deepEqual(lineDelta("a\r\nb\r\n", "a\nb\n"), { added: 0, removed: 0 }, "line endings alone are no change of lines");
    assert.deepEqual(lineDelta("same\n", "same\n"), { added: 0, removed: 0 });
  });

  it("addedLines: the new text's lines an edit added or changed, for the editor's highlight", () => {
    assert.deepEqual(addedLines("a\nb\nc\n", "a\nB\nc\nd\n"), [1, 3]);
    assert.deepEqual(addedLines("", "x\ny\n"), [0, 1]);
    assert.deepEqual(addedLines("a\nb\n", "b\n"), [], "a removed line adds nothing");
    assert.deepEqual(addedLines("same\n", "same\n"), []);
  });
});
