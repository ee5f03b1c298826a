import assert from "node:assert/strict";
import { lineEndOf, lineEndOfSetting, newFileText, withLineEnds } from "../../../src/core/agent/line-ends";
import { replaceOnce } from "../../../src/core/agent/replace-once";

describe("core/agent: the line ends of the agent's writes", () => {
  it("a file keeps its line ends; one of a single line, or a new one, gets files.eol's", () => {
    assert.equal(lineEndOf("a\r\nb"), "\r\n");
    assert.equal(lineEndOf("a\nb\n"), "\n");
    assert.equal(lineEndOf("one line"), undefined);
    assert.equal(lineEndOfSetting("\r\n", "linux"), "\r\n");
    assert.equal(lineEndOfSetting("\n", "win32"), "\n");
    assert.equal(lineEndOfSetting("auto", "win32"), "\r\n");
    assert.equal(lineEndOfSetting("auto", "linux"), "\n");
    assert.equal(lineEndOfSetting(undefined, "darwin"), "\n");
    assert.equal(withLineEnds("a\nb\r\nc\n", "\r\n"), "a\r\nb\r\nc\r\n");
    assert.equal(withLineEnds("a\r\nb\n", "\n"), "a\nb\n");
  });

  it("a new file gets files.eol's line ends, unless the model wrote CRLF on purpose (a .bat file)", () => {
    assert.equal(newFileText("# Notes\n\nText\n", "\r\n"), "# Notes\r\n\r\nText\r\n");
    assert.equal(newFileText("# Notes\n", "\n"), "# Notes\n");
    assert.equal(newFileText("@echo off\r\necho hi\r\n", "\n"), "@echo off\r\necho hi\r\n");
  });

  it("replace_string_in_file in a CRLF file: the model's \\n lines match and are written as CRLF, and a new_string already in CRLF gets no second \\r", () => {
    const text = "const a = 1;\r\nconst b = 2;\r\n";
    assert.deepEqual(replaceOnce(text, "const a = 1;\nconst b = 2;", "const a = 1;\nconst b = 3;", "\r\n"), { text: "const a = 1;\r\nconst b = 3;\r\n" });
    assert.deepEqual(replaceOnce(text, "const b = 2;", "const b = 3;\r\nconst c = 4;", "\r\n"), { text: "const a = 1;\r\nconst b = 3;\r\nconst c = 4;\r\n" });
    // A single-line file under files.eol "\r\n": the added lines get CRLF, as the editor would write them.
    assert.deepEqual(replaceOnce("x = 1", "x = 1", "x = 1\ny = 2", "\r\n"), { text: "x = 1\r\ny = 2" });
    assert.deepEqual(replaceOnce("a\nb\n", "a\nb", "a\nc", "\n"), { text: "a\nc\n" });
  });

  it("old_string must match exactly once", () => {
    assert.deepEqual(replaceOnce("x x", "x", "y", "\n"), { matches: 2 });
    assert.deepEqual(replaceOnce("x", "z", "y", "\n"), { matches: 0 });
  });
});
