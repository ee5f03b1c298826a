import assert from "node:assert/strict";
import { cursorContext } from "../../../src/core/completion/cursor-context";
import { maxSuffixChars } from "../../../src/core/completion/document-window";
import { postprocess } from "../../../src/core/completion/postprocess";
import { inputAt } from "./input-at";

describe("cursor context", () => {
  // A function longer than the suffix the adapter hands over: its `}` is past the cut.
  const body = Array.from({ length: 300 }, (_, i) => `  const v${i} = compute(${i});`).join("\n");
  const doc = `function main() {\n  █\n${body}\n}\n`;
  const raw = "init();\n}\n\nfunction helper() {\n  return 1;\n}";
  /** What the adapter passes for a CRLF file: maxSuffixChars document characters, then \r\n -> \n (shorter). */
  const crlfCut = (): ReturnType<typeof inputAt> => {
    const input = inputAt(doc);
    const suffix = input.suffix.replace(/\n/g, "\r\n").slice(0, maxSuffixChars).replace(/\r\n/g, "\n");
    return { ...input, suffix };
  };

  it("a suffix the caller says was cut closes everything open, however short it is", () => {
    const input = { ...crlfCut(), suffixCut: true };
    assert.ok(input.suffix.length < maxSuffixChars);
    const ctx = cursorContext(input);
    assert.equal(ctx.closedInFile, ctx.brackets.frames.length);
    assert.deepEqual(postprocess(raw, ctx, { maxLines: 8 }), { text: "init();", replace: 0 });
  });

  it("a suffix the caller says is whole counts only the closers it has", () => {
    const ctx = cursorContext({ ...inputAt(doc), suffix: inputAt(doc).suffix.slice(0, maxSuffixChars + 10), suffixCut: false });
    assert.equal(ctx.closedInFile, 0);
    assert.equal(cursorContext({ ...inputAt(doc), suffixCut: false }).closedInFile, 1);
  });
});
