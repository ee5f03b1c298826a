import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathWords, sensitivePathsNamed, withoutSensitiveDiffs } from "../../../src/core/agent/sensitive-command";

// As the default rules have it: .env files and keys, anywhere.
const isSensitive = (path: string) => /(^|\/)\.env(\.[^/]*)?$|\.pem$/.test(path);

describe("the sensitive-file rules for the agent's commands", () => {
  const named: [string, string[]][] = [
    ["git diff .env", [".env"]],
    ["git log -p -- config/.env.local", ["config/.env.local"]],
    ["git show HEAD:.env", [".env"]],
    ["git show HEAD~2:./secrets/server.pem", ["secrets/server.pem"]],
    ["git diff --no-color -- ./a/../.env", [".env"]],
    ["cat $(ls) .env | head", [".env"]],
    ["git log -p", []],
    ["git diff src/app.ts", []],
    ["git diff ../other/.env", []],
    ["ls -la", []],
    // git 2.39 prints the file's first line: fatal: bad revision 'STRIPE_KEY=sk_live_…'.
    ["git log --stdin < .env", [".env"]],
    ["{ git diff --stdin; } < config/.env.local", ["config/.env.local"]],
    ["git log --stdin < revs.txt 2> .env.log", []],
  ];
  for (const [command, expected] of named) {
    it(`${command}: ${expected.length === 0 ? "names none" : expected.join(", ")}`, () => {
      assert.deepEqual(sensitivePathsNamed(command, isSensitive), expected);
    });
  }

  it("leaves them out of a diff in colour (git diff --color, --color-words) or with --line-prefix, as git 2.39 writes them", () => {
    const section = (path: string, old: string, now: string) => [`diff --git a/${path} b/${path}`, "index 1..2 100644", `--- a/${path}`, `+++ b/${path}`, "@@ -1 +1 @@", `-${old}`, `+${now}`];
    const lines = [...section(".env", "STRIPE_KEY=sk_live_old", "STRIPE_KEY=sk_live_new"), ...section("src/app.ts", "let a = 1;", "let a = 2;")];
    const colored = `${lines.map((l) => (l.startsWith("diff") || l.startsWith("index") || l.startsWith("---") || l.startsWith("+++") ? `\x1b[1m${l}\x1b[m` : l.startsWith("+") ? `\x1b[32m${l}\x1b[m` : l.startsWith("-") ? `\x1b[31m${l}\x1b[m` : `\x1b[36m${l}\x1b[m`)).join("\n")}\n`;
    const prefixed = `${lines.map((l) => `> ${l}`).join("\n")}\n`;
    for (const output of [colored, prefixed]) {
      const shown = withoutSensitiveDiffs(output, isSensitive);
      assert.ok(!shown.includes("sk_live"), shown);
      assert.ok(shown.includes("+let a = 2;"), shown);
      assert.match(shown, /^\[the diff of \.env is left out/m);
    }
    assert.equal(withoutSensitiveDiffs("\x1b[32mok\x1b[m\n", isSensitive), "\x1b[32mok\x1b[m\n");
  });

  it("leaves a sensitive file's diff sections out of a command's output, naming it, and keeps the rest", () => {
    const output = [
      "commit 1a2b3c\nAuthor: A <a@example.com>\n\n    settings\n\n",
      "diff --git a/.env b/.env\nindex 1..2 100644\n--- a/.env\n+++ b/.env\n@@ -1 +1 @@\n-STRIPE_KEY=sk_live_old\n+STRIPE_KEY=sk_live_new\n",
      "diff --git a/src/app.ts b/src/app.ts\nindex 3..4 100644\n--- a/src/app.ts\n+++ b/src/app.ts\n@@ -1 +1 @@\n-let a = 1;\n+let a = 2;\n",
    ].join("");
    const shown = withoutSensitiveDiffs(output, isSensitive);
    assert.ok(!shown.includes("sk_live"), shown);
    assert.ok(shown.includes("+let a = 2;"));
    assert.ok(shown.startsWith("commit 1a2b3c"));
    assert.match(shown, /^\[the diff of \.env is left out: it matches wisp\.sensitiveFiles or \.wispignore and may hold secrets\]$/m);
    assert.equal(withoutSensitiveDiffs("nothing to see\n", isSensitive), "nothing to see\n");
  });

  it("leaves them out of git diff during a merge with conflicts (diff --cc, as git 2.39 writes it)", () => {
    const output = [
      "diff --cc .env\nindex b9245ab,c61df8d..0000000\n--- a/.env\n+++ b/.env\n@@@ -1,1 -1,1 +1,5 @@@\n++<<<<<<< HEAD\n +STRIPE_KEY=sk_live_ours\n++=======\n+ STRIPE_KEY=sk_live_theirs\n++>>>>>>> other\n",
      "diff --cc src/app.ts\nindex 84c67ed,66d48fc..0000000\n--- a/src/app.ts\n+++ b/src/app.ts\n@@@ -1,1 -1,1 +1,5 @@@\n++<<<<<<< HEAD\n +let a = 3;\n++=======\n+ let a = 2;\n++>>>>>>> other\n",
    ].join("");
    const shown = withoutSensitiveDiffs(output, isSensitive);
    assert.ok(!shown.includes("sk_live"), shown);
    assert.ok(shown.includes(" +let a = 3;"), shown);
    assert.match(shown, /^\[the diff of \.env is left out/m);
  });

  it("leaves them out of git log --graph -p, whose columns before each line change from commit to commit (real git)", () => {
    const root = mkdtempSync(join(tmpdir(), "wisp-graph-"));
    try {
      const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: root, encoding: "utf8" });
      git("init", "--quiet", "--initial-branch=main");
      writeFileSync(join(root, ".env"), "STRIPE_KEY=sk_live_first\n");
      writeFileSync(join(root, "app.ts"), "let a = 1;\n");
      git("add", ".");
      git("commit", "--quiet", "-m", "first");
      writeFileSync(join(root, "app.ts"), "let a = 2;\n");
      git("commit", "--quiet", "-am", "second");
      // A linear history: the second commit's lines are drawn after '| ', the first's after two spaces.
      const linear = git("log", "--graph", "-p");
      git("checkout", "--quiet", "-b", "side");
      writeFileSync(join(root, "b.ts"), "let b = 1;\n");
      git("add", "b.ts");
      git("commit", "--quiet", "-m", "side");
      git("checkout", "--quiet", "main");
      writeFileSync(join(root, ".env"), "STRIPE_KEY=sk_live_rotated\n");
      git("commit", "--quiet", "-am", "rotate");
      git("merge", "--quiet", "--no-edit", "side");
      for (const output of [linear, git("log", "--graph", "-p"), git("log", "--graph", "-p", "--line-prefix=> ")]) {
        assert.ok(output.includes("sk_live"), "the output holds the .env's lines");
        const shown = withoutSensitiveDiffs(output, isSensitive);
        assert.ok(!shown.includes("sk_live"), shown);
        assert.ok(shown.includes("+let a = 2;"), shown);
        assert.match(shown, /^\[the diff of \.env is left out/m);
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("reads at once an output line of 100,000 characters of spaces (or graph columns) before a diff header, as a padded line the agent prints may hold", function () {
    // The old end-anchored pattern was tried from every position: 20 s and more for such a line, the editor frozen.
    this.timeout(3_000);
    for (const pad of [" ", "| "]) {
      const output = `${pad.repeat(100_000 / pad.length)}x diff --git a/.env b/.env\n+API=1\ndiff --git a/.env b/.env\nindex 1..2\n--- a/.env\n+++ b/.env\n+TOKEN=sk_live_1\n`;
      const shown = withoutSensitiveDiffs(output, isSensitive);
      assert.ok(!shown.includes("sk_live_1"), shown.slice(-200));
      assert.match(shown, /^\[the diff of \.env is left out/m);
    }
  });
});

describe("the paths a terminal's command line names (Explain Terminal Failure and @terminal ask before sending a sensitive one's output)", () => {
  it("gives the words as written, outside the workspace too, an option's value and git's REV:PATH as their path", () => {
    const words = pathWords("source .env && docker compose --env-file=config/.env up; cat ~/.netrc ../shop/.env | grep -i key < notes.txt; git show HEAD:.npmrc");
    for (const path of [".env", "config/.env", "~/.netrc", "../shop/.env", "notes.txt", ".npmrc"]) assert.ok(words.includes(path), `${path} in ${JSON.stringify(words)}`);
  });
});
