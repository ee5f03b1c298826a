import assert from "node:assert/strict";
import { describeBlock, enclosingBlock, type SymbolNode } from "../../../../src/core/edit/enclosing-block";
import { changedSpan, joinBlock, splitBlock } from "../../../../src/core/edit/block-text";
import { editMessages } from "../../../../src/core/edit/edit-prompt";
import { matchingBlock } from "../../../../src/core/edit/matching-block";

const node = (name: string, kind: string, startLine: number, endLine: number, children: SymbolNode[] = []): SymbolNode => ({ name, kind, startLine, endLine, children });
const symbols = [node("Cart", "Class", 0, 20, [node("items", "Property", 1, 1), node("total", "Method", 3, 9, [node("sum", "Variable", 4, 4)]), node("helper", "Function", 11, 18, [node("inner", "Function", 13, 15)])])];
const lines = ["a", "b", "", "c", "d", "e", "", "f"];

describe("core/edit: the block to edit, its text, and the request", () => {
  it("picks the innermost function or method around the cursor", () => {
    assert.deepEqual(enclosingBlock(symbols, [], 4), { startLine: 3, endLine: 9, source: { kind: "symbol", name: "total", symbolKind: "Method" } });
    assert.equal(enclosingBlock(symbols, [], 14)?.source.kind === "symbol" && enclosingBlock(symbols, [], 14)?.startLine, 13);
  });

  it("falls back to the innermost multi-line symbol, then to the paragraph", () => {
    assert.deepEqual(enclosingBlock(symbols, [], 1), { startLine: 0, endLine: 20, source: { kind: "symbol", name: "Cart", symbolKind: "Class" } });
    assert.deepEqual(enclosingBlock([], lines, 4), { startLine: 3, endLine: 5, source: { kind: "paragraph" } });
    assert.equal(enclosingBlock([], lines, 2), undefined);
  });

  it("says which lines it took, 1-based", () => {
    assert.equal(describeBlock(enclosingBlock(symbols, [], 4)!), "method total (lines 4-10)");
    assert.equal(describeBlock(enclosingBlock([], lines, 7)!), "the paragraph at line 8");
  });

  it("keeps line endings and a missing final line break when a block is put back", () => {
    for (const text of ["a\r\nb\r\n", "a\r\nb", "a\nb\n", "a\nb", ""]) {
      const eol = text.includes("\r\n") ? "\r\n" : "\n";
      assert.equal(joinBlock(splitBlock(text, eol)), text);
    }
  });

  it("edits whole lines only, never inside a CRLF", () => {
    assert.deepEqual(changedSpan("a\r\nb\r\nc\r\n", "a\r\nB\r\nc\r\n"), { start: 3, end: 6, text: "B\r\n" });
    assert.deepEqual(changedSpan("a\nb\n", "a\nb\nc\n"), { start: 4, end: 4, text: "c\n" });
    assert.equal(changedSpan("same", "same"), undefined);
    const apply = (current: string, next: string) => {
      const span = changedSpan(current, next)!;
      return current.slice(0, span.start) + span.text + current.slice(span.end);
    };
    for (const [a, b] of [["x\r\n\r\ny", "x\r\nz\r\n\r\ny"], ["abc", "abd"], ["a\nb", "a\nb\n"]] as const) assert.equal(apply(a, b), b);
  });

  it("asks for the replacement only, with the file, language, lines, context and problems", () => {
    const [system, user] = editMessages({
      instruction: "rename result to sum",
      path: "src/cart.ts",
      language: "typescript",
      startLine: 9,
      lines: ["  let result = 0;", "  return result;"],
      before: ["function total() {"],
      after: ["}"],
      diagnostics: [{ line: 10, severity: "error", message: "Cannot find name 'x'." }],
    });
    assert.match(system!.content, /replacement for the block only/);
    const content = user!.content;
    assert.match(content, /^File: src\/cart\.ts \(typescript\)/);
    assert.match(content, /Lines 9-9, before the block[^\n]*\n```typescript\nfunction total\(\) \{\n```/);
    assert.match(content, /The block, lines 10-11:\n```typescript\n  let result = 0;\n  return result;\n```/);
    assert.match(content, /Lines 12-12, after the block/);
    assert.match(content, /- line 11 \(error\): Cannot find name 'x'\./);
    assert.match(content, /Instruction: rename result to sum/);
  });
});

describe("core/edit: where chat code applies without a selection", () => {
  it("takes the lines that start and end like the code, closest in length", () => {
    const doc = ["def a():", "    return 1", "", "def b():", "    x = 2", "    return x", "", "def b():", "    return 3"];
    assert.deepEqual(matchingBlock(doc, ["def b():", "    y = 2", "    return x", ""]), { startLine: 3, endLine: 5 });
    assert.deepEqual(matchingBlock(doc, ["  def a():", "      return 1"]), { startLine: 0, endLine: 1 });
    assert.equal(matchingBlock(doc, ["class C:", "    pass"]), undefined);
  });
});
