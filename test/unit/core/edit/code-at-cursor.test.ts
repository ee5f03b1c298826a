import assert from "node:assert/strict";
import { codeAtCursor } from "../../../../src/core/edit/code-at-cursor";

describe("core/edit: code inserted at the cursor (chat's Insert)", () => {
  const spaces = { useTabs: false, tabSize: 4 };
  const tabs = { useTabs: true, tabSize: 4 };

  it("on an indented empty line, every line follows the cursor's indentation, the first starting at the cursor", () => {
    const code = "if (total > 100) {\n  total -= discount;\n}";
    assert.equal(codeAtCursor(code, "    ", spaces), "if (total > 100) {\n      total -= discount;\n    }");
  });

  it("in a file indented with tabs, a reply's two-space levels become tabs after the cursor's tabs", () => {
    const code = "for (const item of items) {\n  sum += item.price;\n}";
    assert.equal(codeAtCursor(code, "\t\t", tabs), "for (const item of items) {\n\t\t\tsum += item.price;\n\t\t}");
  });

  it("a block the model indented deeper than the cursor is shifted to it, its own first indentation left out", () => {
    assert.equal(codeAtCursor("        a();\n        b();", "  ", { useTabs: false, tabSize: 2 }), "a();\n  b();");
  });

  it("after code on the line, the first line goes as written and the next follow the line's indentation", () => {
    assert.equal(codeAtCursor("{\n  a();\n}", "  const f = () => ", { useTabs: false, tabSize: 2 }), "{\n    a();\n  }");
    assert.equal(codeAtCursor("  x + 1", "return ", spaces), "  x + 1");
  });

  it("at the start of a line, code goes in as written; blank lines stay empty", () => {
    assert.equal(codeAtCursor("def f():\n    return 1\n\nx = f()", "", spaces), "def f():\n    return 1\n\nx = f()");
  });
});
