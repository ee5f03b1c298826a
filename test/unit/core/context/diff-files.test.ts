import assert from "node:assert/strict";
import { diffSections, gitPath, withoutFiles } from "../../../../src/core/context/diff-files";

const envChange = [
  "diff --git a/config/.env b/config/.env",
  "index 1111111..2222222 100644",
  "--- a/config/.env",
  "+++ b/config/.env",
  "@@ -1 +1 @@",
  "-API_TOKEN=old-secret",
  "+API_TOKEN=new-secret",
  "",
].join("\n");
const codeChange = [
  "diff --git a/src/app.ts b/src/app.ts",
  "index 3333333..4444444 100644",
  "--- a/src/app.ts",
  "+++ b/src/app.ts",
  "@@ -1 +1 @@",
  "-export const port = 80;",
  "+export const port = 8080;",
  "",
].join("\n");
const isEnv = (path: string) => /(^|\/)\.env/.test(path);

describe("diff files (@git without sensitive files)", () => {
  it("drops the sections of the files picked and keeps the others byte for byte", () => {
    const { text, dropped } = withoutFiles(`${codeChange}${envChange}${codeChange}`, isEnv);
    assert.equal(text, `${codeChange}${codeChange}`);
    assert.deepEqual(dropped, ["config/.env"]);
  });

  it("keeps a diff with nothing to drop as it is", () => {
    assert.deepEqual(withoutFiles(codeChange, isEnv), { text: codeChange, dropped: [] });
  });

  it("sees the file in a new file, a deletion, a rename and a binary or mode-only change", () => {
    const added = "diff --git a/.env b/.env\nnew file mode 100644\nindex 0000000..5555555\n--- /dev/null\n+++ b/.env\n@@ -0,0 +1 @@\n+KEY=1\n";
    const deleted = "diff --git a/.env.local b/.env.local\ndeleted file mode 100644\nindex 5555555..0000000\n--- a/.env.local\n+++ /dev/null\n@@ -1 +0,0 @@\n-KEY=1\n";
    const renamed = "diff --git a/settings.txt b/.env.prod\nsimilarity index 90%\nrename from settings.txt\nrename to .env.prod\n";
    const binary = "diff --git a/keys/.env.bin b/keys/.env.bin\nindex 6666666..7777777 100644\nBinary files a/keys/.env.bin and b/keys/.env.bin differ\n";
    const mode = "diff --git a/.env.sh b/.env.sh\nold mode 100644\nnew mode 100755\n";
    const { text, dropped } = withoutFiles([added, deleted, renamed, binary, mode, codeChange].join(""), isEnv);
    assert.equal(text, codeChange);
    assert.deepEqual(dropped, [".env", ".env.local", ".env.prod", "keys/.env.bin", ".env.sh"]);
  });

  // As git writes them (git 2.43) with the settings many users have: the files are the same, only their prefixes differ.
  it("reads the paths under diff.mnemonicPrefix (c/ i/ w/) and diff.noprefix as under a/ b/", () => {
    const mnemonic = [
      "diff --git c/.env i/.env\nindex bd2c89c..f6a0610 100644\n--- c/.env\n+++ i/.env\n@@ -1 +1 @@\n-A=1\n+A=2\n",
      "diff --git c/my app.ts i/my app.ts\ndeleted file mode 100644\nindex 587be6b..0000000\n--- c/my app.ts\t\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n",
      "diff --git i/s/app.ts w/s/app.ts\nindex 2795c87..8863470 100644\n--- i/s/app.ts\n+++ w/s/app.ts\n@@ -1 +1,2 @@\n y\n+z\n",
    ].join("");
    const noprefix = mnemonic.replace(/\b[ciw]\//g, "");
    for (const diff of [mnemonic, noprefix]) {
      assert.deepEqual(diffSections(diff).map((s) => s.paths), [[".env"], ["my app.ts"], ["s/app.ts"]], diff);
      const { text, dropped } = withoutFiles(diff, isEnv);
      assert.deepEqual(dropped, [".env"]);
      assert.ok(!text.includes("A=2"), text);
    }
    const renamed = "diff --git c/settings.txt i/.env.prod\nsimilarity index 90%\nrename from settings.txt\nrename to .env.prod\n";
    assert.deepEqual(diffSections(renamed)[0]!.paths, ["settings.txt", ".env.prod"]);
  });

  it("reads the paths git quotes (a name past ASCII, as core.quotePath writes it by default): a sensitive folder named données/ is left out", () => {
    // As git 2.39 writes them: the UTF-8 bytes in octal, a tab as \t.
    const diff = [
      'diff --git "a/donn\\303\\251es/caf\\303\\251.md" "b/donn\\303\\251es/caf\\303\\251.md"',
      "index 587be6b..dd87320 100644",
      '--- "a/donn\\303\\251es/caf\\303\\251.md"',
      '+++ "b/donn\\303\\251es/caf\\303\\251.md"',
      "@@ -1 +1,2 @@",
      " x",
      "+SECRET=hunter2",
      'diff --git "a/donn\\303\\251es/caf\\303\\251.md" "b/notes/th\\303\\251 au lait.md"',
      "similarity index 100%",
      'rename from "donn\\303\\251es/caf\\303\\251.md"',
      'rename to "notes/th\\303\\251 au lait.md"',
      'diff --git "a/tab\\tname.txt" "b/tab\\tname.txt"',
      "new file mode 100644",
      "index 0000000..422c2b7",
      "--- /dev/null",
      '+++ "b/tab\\tname.txt"',
      "@@ -0,0 +1 @@",
      "+b",
      "",
    ].join("\n");
    assert.deepEqual(diffSections(diff).map((s) => s.paths), [["données/café.md"], ["données/café.md", "notes/thé au lait.md"], ["tab\tname.txt"]]);
    const filtered = withoutFiles(diff, (path) => path.startsWith("données/"));
    assert.deepEqual(filtered.dropped, ["données/café.md"]);
    assert.doesNotMatch(filtered.text, /hunter2/);
    assert.equal(gitPath('"\\"quoted\\" \\\\ name"'), '"quoted" \\ name');
    assert.equal(gitPath("plain/path.ts"), "plain/path.ts");
  });

  // As git 2.39 writes them: git diff during a merge (or rebase, cherry-pick) with conflicts, and git diff -c.
  it("sees the files of a merge's combined diff (diff --cc, diff --combined), whatever their order", () => {
    const conflict = (header: string, path: string, ours: string, theirs: string) =>
      `${header}\nindex b9245ab,c61df8d..0000000\n--- a/${path}\n+++ b/${path}\n@@@ -1,1 -1,1 +1,5 @@@\n++<<<<<<< HEAD\n +${ours}\n++=======\n+ ${theirs}\n++>>>>>>> other\n`;
    const code = conflict("diff --cc app.ts", "app.ts", "export const a = 3;", "export const a = 2;");
    const diff = `${code}${conflict("diff --cc config/.env", "config/.env", "API_KEY=main_secret", "API_KEY=other_secret")}${conflict("diff --combined my dir/.env", "my dir/.env", "A=3", "A=2")}${conflict('diff --cc "cl\\303\\251s/.env"', "clés/.env", "B=3", "B=2")}`;
    assert.deepEqual(diffSections(diff).map((s) => s.paths), [["app.ts"], ["config/.env"], ["my dir/.env"], ["clés/.env"]]);
    const { text, dropped } = withoutFiles(diff, isEnv);
    assert.equal(text, code);
    assert.deepEqual(dropped, ["config/.env", "my dir/.env", "clés/.env"]);
  });
});
