import assert from "node:assert/strict";
import type { Hunk } from "../../../../src/core/next-edit/edit-history";
import { buildSweepPrompt, originalWindow, sweepAnswerEdits, sweepChange, sweepWindow } from "../../../../src/core/next-edit/sweep-prompt";

/**
 * The expectations are Zed's own, from github:zed-industries/zed
 * crates/edit_prediction/src/sweep_prompt.rs at ab905301d4eaac433af2d6a951d41e9b59cae178: its tests
 * `test_build_prompt_uses_run_model_ordering` (less the related-file block, which Wisp does not
 * send), `test_original_window_for_current_window_*` and `test_recent_change_block_from_event_*`.
 */
describe("Sweep's next-edit prompt", () => {
  const uri = "file:///w/src/main.rs";

  it("lays out recent changes, the original and current window, and the updated header byte for byte", () => {
    const prompt = buildSweepPrompt({
      path: "src/main.rs",
      originalWindow: "old window",
      currentWindow: "current window",
      recentChanges: [{ path: "src/lib.rs", original: "old", updated: "new" }],
    });
    assert.equal(
      prompt,
      "<|file_sep|>src/lib.rs.diff\noriginal:\nold\nupdated:\nnew\n" +
        "<|file_sep|>original/src/main.rs\nold window\n" +
        "<|file_sep|>current/src/main.rs\ncurrent window\n" +
        "<|file_sep|>updated/src/main.rs\n",
    );
  });

  it("keeps the last three changes, adds no second line break, and refuses text holding the model's tokens", () => {
    const changes = ["a", "b", "c", "d"].map((x) => ({ path: "f.ts", original: `${x}\n`, updated: x.toUpperCase() }));
    assert.equal(
      buildSweepPrompt({ path: "f.ts", originalWindow: "w\n", currentWindow: "w", recentChanges: changes }),
      ["b", "c", "d"].map((x) => `<|file_sep|>f.ts.diff\noriginal:\n${x}\nupdated:\n${x.toUpperCase()}\n`).join("") +
        "<|file_sep|>original/f.ts\nw\n<|file_sep|>current/f.ts\nw\n<|file_sep|>updated/f.ts\n",
    );
    assert.equal(buildSweepPrompt({ path: "f.ts", originalWindow: "w", currentWindow: "x </s>", recentChanges: [] }), undefined);
    assert.equal(buildSweepPrompt({ path: "f.ts", originalWindow: "w", currentWindow: "w", recentChanges: [{ path: "g", original: "<|file_sep|>", updated: "" }] }), undefined);
  });

  it("takes the window from 10 lines above the cursor's line to 10 below, without the last line break", () => {
    const text = Array.from({ length: 30 }, (_, i) => `line${i}`).join("\n") + "\n";
    const cursor = text.indexOf("line15") + 2;
    const window = sweepWindow(text, cursor);
    assert.equal(text.slice(window.start, window.end), Array.from({ length: 21 }, (_, i) => `line${i + 5}`).join("\n"));
    const top = sweepWindow(text, 0);
    assert.equal(text.slice(top.start, top.end), Array.from({ length: 11 }, (_, i) => `line${i}`).join("\n"));
    const short = "zero\none\ntwo\nthree\n";
    assert.deepEqual(sweepWindow(short, 5), { start: 0, end: short.length });
  });

  it("maps the window back to the text before the latest edit, as Zed's tests expect", () => {
    // "zero\none\ntwo\nthree\n" with "one" replaced by "ONE", window rows 0-2.
    const text = "zero\nONE\ntwo\nthree\n";
    const hunk: Hunk = { uri, offset: 5, oldText: "one", newText: "ONE" };
    assert.equal(originalWindow(text, hunk, { start: 0, end: 12 }), "zero\none\ntwo");
    // "aaaaabbbbb" with 5..10 replaced by "b": the window's end after the edit maps to the old end.
    const shrunk: Hunk = { uri, offset: 5, oldText: "bbbbb", newText: "b" };
    assert.equal(originalWindow("aaaaab", shrunk, { start: 0, end: 6 }), "aaaaabbbbb");
  });

  it("shows an edit as the whole lines it touched, before and after", () => {
    const text = 'fn main() {\n    println!("new");\n}\n';
    const hunk: Hunk = { uri, offset: text.indexOf("new"), oldText: "old", newText: "new" };
    assert.deepEqual(sweepChange("src/main.rs", text, hunk), { path: "src/main.rs", original: '    println!("old");', updated: '    println!("new");' });
    const lines = Array.from({ length: 50 }, (_, i) => `l${i}`);
    const long = sweepChange("f", lines.join("\n"), { uri, offset: 0, oldText: "", newText: lines.join("\n") });
    assert.equal(long.updated, [...lines.slice(0, 20), "...", ...lines.slice(-19)].join("\n"));
  });

  it("turns the answer into the edits of the window, each narrowed to what changed, cut at the stop token", () => {
    const text = "head\nlet total = 0;\nfor (x of xs) count += x;\nreturn count;\ntail\n";
    const window = { start: 5, end: text.indexOf("\ntail") };
    const answer = "let total = 0;\nfor (x of xs) total += x;\nreturn total;\n<|file_sep|>next";
    assert.deepEqual(sweepAnswerEdits(text, window, answer), [
      { offset: text.indexOf("count +="), oldText: "count", newText: "total" },
      { offset: text.indexOf("count;"), oldText: "count", newText: "total" },
    ]);
    // Unchanged (with or without the answer's final line break), empty, or lines added and removed.
    assert.deepEqual(sweepAnswerEdits(text, window, text.slice(window.start, window.end) + "\n</s>"), []);
    assert.deepEqual(sweepAnswerEdits(text, window, ""), []);
    assert.deepEqual(sweepAnswerEdits("a\nb\nc", { start: 0, end: 5 }, "a\nx\ny\nc"), [{ offset: 2, oldText: "b", newText: "x\ny" }]);
    assert.deepEqual(sweepAnswerEdits("a\nb\nc", { start: 0, end: 5 }, "a\nc"), [{ offset: 2, oldText: "b\n", newText: "" }]);
  });

  it("in a CRLF file, an answer in LF lines changes only what the model changed, never the line breaks", () => {
    const text = "head\r\nlet total = 0;\r\nfor (x of xs) count += x;\r\nreturn count;\r\ntail\r\n";
    const window = { start: 6, end: text.indexOf("\r\ntail") };
    const answer = "let total = 0;\nfor (x of xs) total += x;\nreturn total;\n<|file_sep|>";
    assert.deepEqual(sweepAnswerEdits(text, window, answer), [
      { offset: text.indexOf("count +="), oldText: "count", newText: "total" },
      { offset: text.indexOf("count;"), oldText: "count", newText: "total" },
    ]);
    assert.deepEqual(sweepAnswerEdits(text, window, "let total = 0;\nfor (x of xs) count += x;\nreturn count;\n"), []);
    assert.deepEqual(sweepAnswerEdits("a\r\nb\r\nc", { start: 0, end: 7 }, "a\nx\ny\nc"), [{ offset: 3, oldText: "b", newText: "x\r\ny" }]);
  });

  it("on a file of 40 lines, CRLF or LF, the window it sends gives no edit when the model echoes it and one edit per changed line", () => {
    for (const eol of ["\r\n", "\n"]) {
      const lines = Array.from({ length: 40 }, (_, i) => `const v${i} = ${i};`);
      const text = lines.join(eol) + eol;
      const window = sweepWindow(text, text.indexOf("v20"));
      const sent = text.slice(window.start, window.end);
      // The model echoes the window, in the file's breaks or in LF, with a last break before the stop token.
      assert.deepEqual(sweepAnswerEdits(text, window, `${sent}${eol}</s>`), [], JSON.stringify(eol));
      assert.deepEqual(sweepAnswerEdits(text, window, `${sent.replaceAll("\r\n", "\n")}\n</s>`), [], JSON.stringify(eol));
      // One line changed, the window's last one included: that edit alone, the line breaks kept.
      for (const row of [20, 30]) {
        const answer = lines.slice(10, 31).map((line, i) => (i + 10 === row ? `var v${row} = ${row};` : line)).join("\n") + "\n</s>";
        const edits = sweepAnswerEdits(text, window, answer);
        assert.deepEqual(edits, [{ offset: text.indexOf(`const v${row} `), oldText: "const", newText: "var" }], `${JSON.stringify(eol)} row ${row}`);
        const edited = text.slice(0, edits[0]!.offset) + edits[0]!.newText + text.slice(edits[0]!.offset + edits[0]!.oldText.length);
        assert.equal(edited, lines.map((line, i) => (i === row ? `var v${row} = ${row};` : line)).join(eol) + eol);
      }
    }
  });
});
