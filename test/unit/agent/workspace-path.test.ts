import assert from "node:assert/strict";
import { relativeInside } from "../../../src/core/agent/workspace-path";

describe("core/agent: workspace-relative paths", () => {
  const accepted: readonly (readonly [string, string])[] = [
    ["src/cart.js", "src/cart.js"],
    ["./src/cart.js", "src/cart.js"],
    ["src\\lib\\cart.js", "src/lib/cart.js"],
    ["src//lib/./cart.js", "src/lib/cart.js"],
    ["src/lib/../cart.js", "src/cart.js"],
    ["src/", "src"],
    ["a/b/../../c", "c"],
    ["..foo/x", "..foo/x"],
    ["name with spaces.txt", "name with spaces.txt"],
    [".", ""],
    ["./", ""],
    ["", ""],
    ["src/..", ""],
  ];
  for (const [given, expected] of accepted) {
    it(`accepts ${JSON.stringify(given)} as ${JSON.stringify(expected)}`, () => assert.deepEqual(relativeInside(given), { path: expected }));
  }

  const refused = ["/etc/passwd", "\\etc\\passwd", "\\\\server\\share\\x", "C:\\Windows\\win.ini", "c:/x", "C:x", "~", "~/.ssh/id_rsa", "~root/x", "..", "../x", "src/../../x", "a\\..\\..\\x", "file:///etc/passwd", "a\0b", "   "];
  for (const given of refused) {
    it(`refuses ${JSON.stringify(given)}`, () => assert.ok("error" in relativeInside(given)));
  }

  it("says what is wrong in a sentence the model can act on", () => {
    assert.deepEqual(relativeInside("/etc/passwd"), { error: "Path /etc/passwd is outside the workspace: give a path relative to the workspace folder." });
    assert.match((relativeInside("a\0b") as { error: string }).error, /NUL/);
    assert.match((relativeInside(" ") as { error: string }).error, /empty/);
  });

  it("refuses the root itself where a file is needed", () => {
    assert.match((relativeInside(".", { file: true }) as { error: string }).error, /workspace folder itself/);
    assert.deepEqual(relativeInside("a.txt", { file: true }), { path: "a.txt" });
  });
});
