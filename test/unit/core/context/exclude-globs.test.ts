import assert from "node:assert/strict";
import { ExcludeGlobs, globToRegExp } from "../../../../src/core/context/exclude-globs";

const matches = (glob: string, path: string) => globToRegExp(glob).test(path);

describe("files.exclude patterns, matched as the editor's file search matches them", () => {
  it("matches * and ? within a segment, ** across segments, anchored at the workspace folder", () => {
    assert.ok(matches("*.log", "debug.log"));
    assert.ok(!matches("*.log", "logs/debug.log"), "without ** a pattern applies from the folder's root");
    assert.ok(matches("**/*.log", "logs/deep/debug.log"));
    assert.ok(matches("**/*.log", "debug.log"), "**/ also matches no folder at all");
    assert.ok(matches("**/node_modules", "node_modules"));
    assert.ok(matches("**/node_modules", "packages/a/node_modules"));
    assert.ok(!matches("**/node_modules", "packages/a/node_modules2"));
    assert.ok(matches("build/**", "build"));
    assert.ok(matches("build/**", "build/x/y.js"));
    assert.ok(matches("src/**/gen/*.ts", "src/gen/a.ts"));
    assert.ok(matches("src/**/gen/*.ts", "src/a/b/gen/a.ts"));
    assert.ok(!matches("src/**/gen/*.ts", "src/a/b/gen/sub/a.ts"));
    assert.ok(matches("file?.txt", "file1.txt"));
    assert.ok(!matches("file?.txt", "file12.txt"));
    assert.ok(matches("**", "any/thing"));
  });

  it("matches {a,b} alternatives (with slashes too), [...] ranges, and takes other characters literally", () => {
    assert.ok(matches("**/*.{js,map}", "out/a.js.map"));
    assert.ok(matches("**/*.{js,map}", "out/a.js"));
    assert.ok(!matches("**/*.{js,map}", "out/a.ts"));
    assert.ok(matches("{**/dist,out}", "pkg/dist"));
    assert.ok(matches("{**/dist,out}", "out"));
    assert.ok(!matches("{**/dist,out}", "pkg/out"));
    assert.ok(matches("log[0-9].txt", "log3.txt"));
    assert.ok(!matches("log[!0-9].txt", "log3.txt"));
    assert.ok(matches("a+b (1).txt", "a+b (1).txt"));
    assert.ok(!matches("a.b", "axb"));
  });

  it("excludes a path when it or a folder above it matches a pattern set to true; false turns a pattern off", () => {
    const globs = new ExcludeGlobs({ "**/.git": true, "**/node_modules": true, "**/*.tmp": false, "**/*.js": { when: "$(basename).ts" } });
    assert.equal(globs.verdict("node_modules/left-pad/index.js"), "excluded");
    assert.equal(globs.verdict("a/.git/HEAD"), "excluded");
    assert.equal(globs.verdict("src/cart.ts"), "included");
    assert.equal(globs.verdict("notes.tmp"), "included");
    assert.equal(globs.verdict("src/cart.js"), "depends-on-siblings", "a sibling condition needs the files beside it");
    assert.equal(new ExcludeGlobs(undefined).verdict("anything"), "included");
  });
});
