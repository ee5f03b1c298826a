import assert from "node:assert/strict";
import { codeBlockPath, looksLikeLinkedPath } from "../../../../src/core/chat/code-block-path";

describe("the file a code block names", () => {
  it("reads a path from a comment on the block's first line", () => {
    assert.equal(codeBlockPath("// src/cart/cart.ts", []), "src/cart/cart.ts");
    assert.equal(codeBlockPath("# server/shipping.py", []), "server/shipping.py");
    assert.equal(codeBlockPath("<!-- file: docs/index.html -->", []), "docs/index.html");
    assert.equal(codeBlockPath("/* ./lib/util.js */", []), "lib/util.js");
  });

  it("else takes the last path in inline code before the block", () => {
    assert.equal(codeBlockPath("export function x() {", ["Cart", "src/cart.ts", "src/price.ts"]), "src/price.ts");
  });

  it("reads paths with letters of any script, and Next.js route folders ([slug], (shop))", () => {
    assert.equal(codeBlockPath("// src/composants/Résumé.tsx", []), "src/composants/Résumé.tsx");
    assert.equal(codeBlockPath("export default function Page() {", ["app/[slug]/page.tsx"]), "app/[slug]/page.tsx");
    assert.equal(codeBlockPath("// app/(shop)/cart/page.tsx", []), "app/(shop)/cart/page.tsx");
    assert.equal(codeBlockPath("x", ["docs/日本語.md"]), "docs/日本語.md");
    assert.equal(codeBlockPath("x", ["arr[0].length", "fn(a).map", "items[i].price"]), undefined);
  });

  it("ignores comments and inline code that are not paths", () => {
    assert.equal(codeBlockPath("// add the total", ["total", "1.2.3", "a + b"]), undefined);
    assert.equal(codeBlockPath("# ../../etc/passwd.txt", []), undefined);
    assert.equal(codeBlockPath("const a = 1;", []), undefined);
  });

  it("a file link's path may hold any name a file has, but never reaches outside the workspace", () => {
    for (const path of ["docs/café.md", "app/[slug]/page.tsx", "notes/C# tips.md", "src/100%.ts", "./src/a.ts", "Makefile"]) assert.ok(looksLikeLinkedPath(path), path);
    for (const path of ["../secrets.env", "src/../../x.ts", "/etc/passwd", "C:/Windows/x.ini", "src\\..\\x", "a//b.ts", "src/", "a\nb.ts", ""]) assert.ok(!looksLikeLinkedPath(path), path);
  });
});
