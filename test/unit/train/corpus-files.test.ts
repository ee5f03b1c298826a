import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { languageOf, looksHandWritten } from "../../../scripts/train/corpus-files";
import { SeenLines } from "../../../scripts/train/line-hashes";
import { repoFiles, type TrainingRepo } from "../../../scripts/train/training-repos";

const moduleText = (name: string) =>
  Array.from({ length: 30 }, (_, i) => `export function ${name}${i}(input) {\n  return transform(input, { step: ${i}, label: "${name}" });\n}`).join("\n");

describe("training corpus: near-duplicates, data-like files, repository files", () => {
  it("drops a second build of one module (other white space and wrapper) but keeps files that share only a header", () => {
    const seen = new SeenLines();
    const header = "// Copyright 2024 The Example Authors. Licensed under the MIT licence.\n// See the LICENSE file at the root of this repository.\n";
    const esm = header + moduleText("parse");
    const commonjs = `"use strict";\n${header}${moduleText("parse").replace(/  return/g, "    return")}\nmodule.exports = { parse0 };`;
    assert.equal(seen.addUnlessNearDuplicate(esm, 0.5), true);
    assert.equal(seen.addUnlessNearDuplicate(commonjs, 0.5), false, "the CommonJS copy is a near-duplicate");
    assert.equal(seen.addUnlessNearDuplicate(header + moduleText("format"), 0.5), true, "another module with the same header is kept");
    assert.ok(seen.sharedShare(commonjs) > 0.9);
  });

  it("leaves out tables of keywords and translations, keeps code that has literals", () => {
    const keywords = `const KEYWORDS = [\n${Array.from({ length: 60 }, (_, i) => `  "keyword${i}", "other${i}",`).join("\n")}\n];\nexport default KEYWORDS;\n`;
    const messages = `module.exports = {\n${Array.from({ length: 60 }, (_, i) => `  message_${i}: 'Text number ${i} for the user',`).join("\n")}\n};\n`;
    const code = Array.from({ length: 60 }, (_, i) => `  options.set("key${i}", compute(${i}, "item"));`).join("\n");
    assert.equal(looksHandWritten(keywords), false);
    assert.equal(looksHandWritten(messages), false);
    assert.equal(looksHandWritten(code), true);
  });

  it("judges a component with SVG path data (numbers run together) and ends", () => {
    const path = "31.2163 194.019 35.3681C194.398 35.7669 194.352 36.3991 193.936 36.7609L191.492 38.8897C191.073 39.2538 190.441 39.2043 190.053 z";
    const component = `export const Logo = () => (\n  <svg viewBox="0 0 342 342">\n${Array.from({ length: 50 }, (_, i) => `    <path d="M${i}" />\n           ${path}${i}`).join("\n")}\n  </svg>\n);\n`;
    assert.equal(looksHandWritten(component), true);
  });

  it("takes prose on long lines in Markdown, but not a translated page, nor long lines in code", () => {
    const paragraph = `The server answers each request with the line the model finds most likely, ${"and keeps the rest of the file in view while it does ".repeat(8)}so.`;
    const readme = `# Usage\n\n${paragraph}\n\n\`\`\`sh\nnpm start\n\`\`\`\n\n${paragraph}\n`;
    assert.equal(looksHandWritten(readme, "markdown"), true);
    assert.equal(looksHandWritten(readme, "typescript"), false, "a 500-character line in code reads as minified");
    const translated = readme.replace(/[a-z]/g, (c, i: number) => (i % 7 === 0 ? "\u00e9" : i % 11 === 0 ? "\u4e2d" : c));
    assert.equal(looksHandWritten(translated, "markdown"), false);
  });

  it("knows a script without an extension by its #! line", () => {
    assert.equal(languageOf("bin/n", "#!/usr/bin/env bash\nset -e\n"), "shell");
    assert.equal(languageOf("libexec/rbenv-init", "#!/bin/sh\necho\n"), "shell");
    assert.equal(languageOf("bin/tool", "#!/usr/bin/env python3\nprint(1)\n"), undefined);
    assert.equal(languageOf("Makefile", "all:\n\techo\n"), undefined);
    assert.equal(languageOf("src/main.go", "package main\n"), "go");
    assert.equal(languageOf("db/schema.sql", "create table t (id int);\n"), "sql");
  });

  describe("a training repository at its pinned commit", () => {
    let dir: string;
    let repo: TrainingRepo;
    const files: Record<string, string> = {
      "app/server/routes.ts": "export const routes = [];\n",
      "app/client/view.jsx": "export const View = () => null;\n",
      "app/server/routes.test.ts": "test('routes', () => {});\n",
      "app/tests/helpers.py": "def helper():\n    pass\n",
      "app/vendor/lib.js": "var vendored = 1;\n",
      "app/dist/bundle.js": "var built = 1;\n",
      "app/locales/en.js": "module.exports = {};\n",
      "app/styles.css": "body {}\n",
      "app/db/migrations/0001_init.sql": "create table users (id integer primary key);\n",
      "app/db/migrations/0002_auto.py": "operations = []\n",
      "app/docs/guide.md": "# Guide\n",
      "app/docs/fr/guide.md": "# Guide (en français)\n",
      "app/cmd/main_test.go": "package main\n",
      "scripts/release.ts": "console.log('outside the roots');\n",
    };

    before(() => {
      dir = mkdtempSync(path.join(tmpdir(), "wisp-repo-"));
      for (const [file, text] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        writeFileSync(path.join(dir, file), text);
      }
      const git = (...args: string[]) => execFileSync("git", ["-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", ...args], { encoding: "utf8" });
      git("init", "--quiet");
      git("add", ".");
      git("commit", "--quiet", "-m", "files");
      // A later commit changes a file: the pinned commit's text is what is read.
      writeFileSync(path.join(dir, "app/server/routes.ts"), "export const routes = ['changed'];\n");
      git("commit", "--quiet", "-am", "later");
      repo = { name: "example/app", commit: git("rev-parse", "HEAD~1").trim(), license: "MIT", licenseFile: "LICENSE", roots: ["app/"] };
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it("reads only the project's own source under its roots, as of the pinned commit", () => {
      const read = repoFiles(path.join(dir, ".git"), repo, (p) => /\.(ts|jsx|js|py)$/.test(p));
      assert.deepEqual(
        read.map((f) => [f.path, f.text]),
        [
          ["app/client/view.jsx", files["app/client/view.jsx"]],
          ["app/server/routes.ts", files["app/server/routes.ts"]],
        ],
      );
    });

    it("keeps hand-written SQL migrations and English docs, not a framework's migrations, translations or tests", () => {
      const read = repoFiles(path.join(dir, ".git"), repo, (p) => /\.(sql|md|go|py|ts)$/.test(p)).map((f) => f.path);
      assert.deepEqual(read, ["app/db/migrations/0001_init.sql", "app/docs/guide.md", "app/server/routes.ts"]);
    });

    it("keeps the tests of a repository kept for them", () => {
      const read = repoFiles(path.join(dir, ".git"), { ...repo, tests: true }, (p) => /\.(ts|py|go)$/.test(p)).map((f) => f.path);
      assert.deepEqual(read, ["app/cmd/main_test.go", "app/server/routes.test.ts", "app/server/routes.ts", "app/tests/helpers.py"]);
    });

    it("gives nothing when the commit is not there (the repository was not fetched)", () => {
      assert.deepEqual(repoFiles(path.join(dir, ".git"), { ...repo, commit: "0".repeat(40) }, () => true), []);
      assert.deepEqual(repoFiles(path.join(dir, "missing.git"), repo, () => true), []);
    });
  });
});
