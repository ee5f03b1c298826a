import assert from "node:assert/strict";
import { applyChange } from "../../../../src/core/base/text-change";
import { isSaveEdit, offsetOf, replaceRange, trimTrailingWhitespace, type SaveRules } from "../../../../src/core/edit/save-edits";

const all: SaveRules = { trimTrailingWhitespace: true, insertFinalNewline: true, trimFinalNewlines: true };
const none: SaveRules = { trimTrailingWhitespace: false, insertFinalNewline: false, trimFinalNewlines: false };
/** The change that removes `removed`, found at its first place in `text`. */
const removal = (text: string, removed: string, from = 0) => ({ offset: text.indexOf(removed, from), length: removed.length, text: "" });
const insertionAtEnd = (text: string, inserted: string) => ({ offset: text.length, length: 0, text: inserted });

describe("core/edit: the edits a save makes, told apart from typing", () => {
  it("takes trailing spaces and tabs removed at a line's end for trimmed whitespace", () => {
    const text = "let a = 1;  \r\nlet b = 2;\t \nlast \t";
    assert.ok(isSaveEdit(text, removal(text, "  "), all));
    assert.ok(isSaveEdit(text, removal(text, "\t "), all));
    assert.ok(isSaveEdit(text, removal(text, " \t", 20), all), "on the last line, up to the end of the text");
    assert.ok(isSaveEdit("   \nx", removal("   \nx", "   "), all), "a line of whitespace only");
  });

  it("takes the user's deletions for typing: text, whitespace inside a line, line breaks, a part of the trailing spaces that leaves some", () => {
    const text = "let a = 1;  \nlet  b = 2;\n";
    assert.equal(isSaveEdit(text, removal(text, "1;  "), all), false);
    assert.equal(isSaveEdit(text, removal(text, "  b"), all), false);
    assert.equal(isSaveEdit(text, { offset: text.indexOf("  b"), length: 1, text: "" }, all), false);
    assert.equal(isSaveEdit(text, { offset: text.indexOf("  \n"), length: 1, text: "" }, all), false);
    assert.equal(isSaveEdit(text, removal(text, "\n"), all), false, "a line break inside the text");
    assert.equal(isSaveEdit(text, { offset: 3, length: 0, text: "x" }, all), false);
    assert.equal(isSaveEdit(text, { offset: text.indexOf("  \n"), length: 2, text: " " }, all), false, "a replacement");
  });

  it("takes a line break added at the end of a text whose last line has text for the final newline", () => {
    assert.ok(isSaveEdit("a\r\nb", insertionAtEnd("a\r\nb", "\r\n"), all));
    assert.ok(isSaveEdit("a\nb", insertionAtEnd("a\nb", "\n"), all));
    assert.equal(isSaveEdit("a\nb\n", insertionAtEnd("a\nb\n", "\n"), all), false, "the text already ends with one");
    assert.equal(isSaveEdit("", insertionAtEnd("", "\n"), all), false, "an empty text gets none");
    assert.equal(isSaveEdit("a\nb", insertionAtEnd("a\nb", "\nc"), all), false);
    assert.equal(isSaveEdit("a\nb", { offset: 1, length: 0, text: "\n" }, all), false, "Enter inside the text");
  });

  it("takes empty lines removed at the end of the text for trimmed final newlines", () => {
    const text = "a\r\n\r\n\r\n";
    assert.ok(isSaveEdit(text, { offset: 3, length: 4, text: "" }, all));
    assert.equal(isSaveEdit("a\n\nb\n", { offset: 2, length: 1, text: "" }, all), false, "not at the end");
  });

  it("takes nothing for a save's edit whose setting is off", () => {
    const text = "a  \nb";
    assert.equal(isSaveEdit(text, removal(text, "  "), none), false);
    assert.equal(isSaveEdit(text, insertionAtEnd(text, "\n"), none), false);
    assert.equal(isSaveEdit("a\n\n\n", { offset: 2, length: 2, text: "" }, none), false);
    assert.ok(isSaveEdit(text, removal(text, "  "), { ...none, trimTrailingWhitespace: true }));
  });

  it("trims the ends of lines as the save does, keeping line breaks and whitespace inside lines", () => {
    assert.equal(trimTrailingWhitespace("  a = 1;  \r\n\t\r\n  b\t= 2; \t\nc  "), "  a = 1;\r\n\r\n  b\t= 2;\nc");
  });

  it("makes changes by offset, and by line and character as a document clamps them", () => {
    assert.equal(applyChange("let a;", { offset: 4, length: 1, text: "b" }), "let b;");
    const text = "ab\r\ncd\nef";
    assert.deepEqual([offsetOf(text, { line: 0, character: 2 }), offsetOf(text, { line: 0, character: 9 }), offsetOf(text, { line: 1, character: 1 }), offsetOf(text, { line: 2, character: 5 }), offsetOf(text, { line: 7, character: 0 })], [2, 2, 5, 9, 9]);
    assert.equal(replaceRange("a  \r\nb", { start: { line: 0, character: 1 }, end: { line: 0, character: 3 } }, ""), "a\r\nb");
    assert.equal(replaceRange("a\nb", { start: { line: 1, character: 1 }, end: { line: 1, character: 1 } }, "\n"), "a\nb\n");
  });
});
