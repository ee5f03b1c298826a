import assert from "node:assert/strict";
import { EditHistory } from "../../../../src/core/next-edit/edit-history";

describe("EditHistory", () => {
  const uri = "file:///a.ts";

  /** Types `text` one key at a time at `offset`, as the editor reports it. */
  function type(history: EditHistory, offset: number, text: string): void {
    [...text].forEach((ch, i) => history.change(uri, [{ offset: offset + i, length: 0, text: ch }]));
  }

  it("coalesces keystrokes, backspaces and a selection replaced into one hunk of old and new text", () => {
    const history = new EditHistory();
    history.open(uri, "let count = 1;\ncount++;\n");
    history.change(uri, [{ offset: 4, length: 5, text: "t" }]); // "count" selected, "t" typed
    type(history, 5, "otak");
    history.change(uri, [{ offset: 8, length: 1, text: "" }]); // backspace over "k"
    type(history, 8, "l");
    assert.equal(history.text(uri), "let total = 1;\ncount++;\n");
    assert.deepEqual(history.recent(), [{ uri, offset: 4, oldText: "count", newText: "total" }]);
  });

  it("starts a new hunk away from the last one and moves hunks after a change", () => {
    const history = new EditHistory();
    history.open(uri, "a b c");
    type(history, 4, "X");
    type(history, 0, "YY");
    assert.equal(history.text(uri), "YYa b Xc");
    assert.deepEqual(history.recent(), [
      { uri, offset: 6, oldText: "", newText: "X" },
      { uri, offset: 0, oldText: "", newText: "YY" },
    ]);
  });

  it("moves the user's hunks under Wisp's own edits without recording them, and drops one they cut into", () => {
    const history = new EditHistory();
    history.open(uri, "x = 1; x = 2; x = 3;");
    history.change(uri, [{ offset: 7, length: 1, text: "yy" }]);
    history.change(uri, [{ offset: 0, length: 1, text: "yy" }], true);
    assert.deepEqual(history.recent(), [{ uri, offset: 8, oldText: "x", newText: "yy" }]);
    history.change(uri, [{ offset: 8, length: 2, text: "x" }], true);
    assert.deepEqual(history.recent(), []);
  });

  it("after Wisp's own edits, the user's next change at the same place is a new hunk, not the old one grown", () => {
    const history = new EditHistory();
    history.open(uri, "let count = 1;\ncount++;\n");
    history.change(uri, [{ offset: 4, length: 5, text: "total" }]);
    history.change(uri, [{ offset: 15, length: 5, text: "total" }], true); // the suggestion accepted
    history.change(uri, [{ offset: 4, length: 5, text: "amount" }]); // the declaration renamed again
    assert.equal(history.text(uri), "let amount = 1;\ntotal++;\n");
    assert.deepEqual(history.last(uri), { uri, offset: 4, oldText: "total", newText: "amount" });
  });

  it("a change disowned after its event (a reload from disk) leaves no hunk, keeps its text and the user's earlier hunks, and the next keystroke starts afresh", () => {
    const history = new EditHistory();
    history.open(uri, "let a = 1;\nlet b = 2;\n");
    type(history, 4, "x");
    history.change(uri, [{ offset: 12, length: 11, text: "let b = 3;\n" }]);
    history.disown(uri);
    assert.equal(history.text(uri), "let xa = 1;\nlet b = 3;\n");
    assert.deepEqual(history.recent(), [{ uri, offset: 4, oldText: "", newText: "x" }]);
    type(history, 5, "y");
    assert.deepEqual(history.recent().at(-1), { uri, offset: 5, oldText: "", newText: "y" });
  });

  it("forgets typing that ends where it began, and a document's hunks when it closes", () => {
    const history = new EditHistory();
    history.open(uri, "abc");
    history.open("file:///b.ts", "");
    type(history, 3, "d");
    history.change(uri, [{ offset: 3, length: 1, text: "" }]);
    assert.deepEqual(history.recent(), []);
    type(history, 0, "z");
    history.change("file:///b.ts", [{ offset: 0, length: 0, text: "q" }]);
    history.close(uri);
    assert.deepEqual(history.recent().map((h) => h.uri), ["file:///b.ts"]);
    assert.equal(history.text(uri), undefined);
  });

  it("applies one event's several changes (multi-cursor) against the text before it", () => {
    const history = new EditHistory();
    history.open(uri, "ab\nab\n");
    history.change(uri, [{ offset: 1, length: 0, text: "-" }, { offset: 4, length: 0, text: "-" }]);
    assert.equal(history.text(uri), "a-b\na-b\n");
    assert.equal(history.recent().length, 2);
  });

  it("with several cursors, each cursor's keystrokes grow its own hunk: a word typed over a name at two places is two renames", () => {
    const history = new EditHistory();
    history.open(uri, "let count = 0;\ncount++;\nreturn count;\n");
    history.change(uri, [{ offset: 4, length: 5, text: "" }, { offset: 15, length: 5, text: "" }]);
    let at = [4, 10];
    for (const ch of "total") {
      history.change(uri, at.map((offset) => ({ offset, length: 0, text: ch })));
      at = at.map((offset, i) => offset + 1 + i);
    }
    assert.equal(history.text(uri), "let total = 0;\ntotal++;\nreturn count;\n");
    assert.deepEqual(history.recent().map((h) => [h.offset, h.oldText, h.newText]), [[15, "count", "total"], [4, "count", "total"]]);
  });
});
