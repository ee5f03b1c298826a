import assert from "node:assert/strict";
import { globMatcher } from "../../../../src/core/customization/apply-to";
import { instructionsFor, parseScopedInstructions } from "../../../../src/core/customization/scoped-instructions";
import { pathsInPlay, pathsInText } from "../../../../src/core/customization/paths-in-play";

describe("applyTo globs", () => {
  const matches = (glob: string, path: string) => globMatcher([glob])(path);

  it("**/*.py matches Python files at any depth, and nothing else", () => {
    assert.ok(matches("**/*.py", "app.py"));
    assert.ok(matches("**/*.py", "src/shop/cart.py"));
    assert.ok(!matches("**/*.py", "src/shop/cart.ts"));
    assert.ok(!matches("**/*.py", "src/shop/cart.pyc"));
  });

  it("a glob matches at any depth, as in VS Code (src/**/*.ts in packages/app/src); a leading / or ./ anchors it at the workspace folder", () => {
    assert.ok(matches("*.py", "deep/down/x.py"));
    assert.ok(matches("src/*.ts", "src/a.ts"));
    assert.ok(!matches("src/*.ts", "src/deep/a.ts"), "* stays within a folder");
    assert.ok(matches("src/*.ts", "lib/src/a.ts"));
    assert.ok(matches("src/**/*.ts", "packages/app/src/a.ts"));
    assert.ok(!matches("src/**/*.ts", "packages/app/source/a.ts"));
    assert.ok(matches("/src/**", "src/a/b/c.txt"));
    assert.ok(!matches("/src/**", "lib/src/c.txt"));
    assert.ok(matches("./docs/*.md", "docs/a.md"));
    assert.ok(!matches("./docs/*.md", "site/docs/a.md"));
  });

  it("matches regardless of case, as VS Code does", () => {
    assert.ok(matches("**/*.ts", "src/App.TS"));
    assert.ok(matches("Docs/**", "docs/guide.md"));
    assert.ok(matches("**/readme.md", "pkg/README.md"));
  });

  it("** matches any folders, none included; alternatives, sets and single characters work", () => {
    assert.ok(matches("src/**/test/*.ts", "src/test/a.ts"));
    assert.ok(matches("src/**/test/*.ts", "src/a/b/test/a.ts"));
    assert.ok(matches("**/*.{ts,tsx}", "ui/App.tsx"));
    assert.ok(!matches("**/*.{ts,tsx}", "ui/App.jsx"));
    assert.ok(matches("file[0-9].txt", "file3.txt"));
    assert.ok(!matches("file[!0-9].txt", "file3.txt"));
    assert.ok(matches("?.md", "a.md"));
    assert.ok(!matches("?.md", "ab.md"));
    assert.ok(matches("**", "any/file.at.all"));
    assert.ok(matches("*", "any/file"));
  });

  it("each alternative of {a,b} is a glob of its own, as VS Code reads it: ** spans folders in it, and a leading / anchors it", () => {
    assert.ok(matches("{src/**,docs/**}", "src/a/b.ts"), "src/** inside braces spans folders");
    assert.ok(matches("{src/**,docs/**}", "docs/guide/intro.md"));
    assert.ok(!matches("{src/**,docs/**}", "lib/a.ts"));
    assert.ok(matches("{**/*.ts,**/*.md}", "a.ts"), "**/ inside braces includes no folder at all");
    assert.ok(matches("{**/*.ts,**/*.md}", "docs/a/b.md"));
    assert.ok(matches("{/src/**,*.md}", "src/a.ts") && !matches("{/src/**,*.md}", "pkg/src/a.ts"), "the / anchors its own alternative");
    assert.ok(matches("{/src/**,*.md}", "pkg/README.md"), "the other alternative still matches at any depth");
    assert.ok(matches("{src,lib}/{a,b}.ts", "pkg/lib/b.ts"), "groups after one another");
    assert.ok(matches("src/{a,b.ts", "src/{a,b.ts") && !matches("src/{a,b.ts", "src/a"), "a brace left open is a character");
  });

  it("dots and other regular-expression characters are literal; Windows separators are read as /", () => {
    assert.ok(!matches("*.py", "apy"));
    assert.ok(matches("a+b(1).txt", "a+b(1).txt"));
    assert.ok(globMatcher(["src/**/*.py"])("src\\pkg\\mod.py"));
  });

  it("several globs: any one matching is enough; none matches nothing", () => {
    assert.ok(globMatcher(["**/*.py", "**/*.pyi"])("a/b.pyi"));
    assert.ok(!globMatcher([])("a.py"));
  });

  it("instructions go with the files in play their applyTo matches, in their order", () => {
    const python = parseScopedInstructions(".github/instructions/python.instructions.md", "---\napplyTo: '**/*.py'\n---\nUse type hints.");
    const web = parseScopedInstructions(".github/instructions/web.instructions.md", "---\napplyTo: '**/*.ts, **/*.css'\n---\nNo any.");
    const empty = parseScopedInstructions(".github/instructions/empty.instructions.md", "---\napplyTo: '**'\n---\n");
    assert.deepEqual(instructionsFor([python, web, empty], ["src/app.py"]).map((i) => i.source), [".github/instructions/python.instructions.md"]);
    assert.deepEqual(instructionsFor([python, web, empty], ["src/app.ts"]).map((i) => i.source), [".github/instructions/web.instructions.md"]);
    assert.deepEqual(instructionsFor([python, web], ["a.py", "b.css"]).length, 2);
    assert.deepEqual(instructionsFor([python, web], []), []);
  });
});

describe("the files in play for scoped instructions", () => {
  it("takes file names and paths from the text, not version numbers, abbreviations or prose", () => {
    assert.deepEqual(pathsInText("Why does cart.py fail, and what about `src/app.ts`? Python 3.12 i.e. nothing else. See (docs/a.md)."), ["cart.py", "src/app.ts", "docs/a.md"]);
    assert.deepEqual(pathsInText("How does this work?"), []);
    // Names in other scripts, and é stored as e + U+0301.
    assert.deepEqual(pathsInText("Corrige le bug dans src/composants/Résumé.tsx et 购物车.py, puis cafe\u0301.md."), ["src/composants/Résumé.tsx", "购物车.py", "café.md"]);
  });

  it("takes paths written with Windows separators, as forward-slash paths that applyTo globs match", () => {
    assert.deepEqual(pathsInText("why does src\\cart\\cart.py fail?"), ["src/cart/cart.py"]);
    const python = parseScopedInstructions("py", "---\napplyTo: 'src/**/*.py'\n---\nUse type hints.");
    assert.equal(instructionsFor([python], pathsInPlay({ text: "Look at `src\\cart\\cart.py`", attachments: [] })).length, 1);
  });

  it("takes the attached files' paths, not labels like problems or git changes", () => {
    const attachment = (path: string, label?: string) => ({ id: path, path, language: "x", startLine: 1, endLine: 1, text: "", source: label ? ("git" as const) : ("selection" as const), ...(label ? { label } : {}) });
    assert.deepEqual(pathsInPlay({ text: "and models.py?", attachments: [attachment("src/app.py"), attachment(".", "Uncommitted changes (git diff)")] }), ["src/app.py", "models.py"]);
  });
});
