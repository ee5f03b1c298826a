import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { withoutSensitiveDiffs } from "../../../../src/core/agent/sensitive-command";
import { encryptedPatterns } from "../../../../src/core/context/encrypted-files";
import { gitContextText } from "../../../../src/core/context/git-context-text";
import { DEFAULT_SENSITIVE_FILES, SensitiveFiles } from "../../../../src/core/context/sensitive-files";

describe("core/context: files .gitattributes keeps encrypted count as sensitive", () => {
  it("reads git-crypt's, transcrypt's and sops' drivers, and macros that set them", () => {
    const attributes = [
      "# secrets",
      "config/prod.yaml filter=git-crypt diff=git-crypt",
      "*.secret.json filter=crypt diff=crypt merge=crypt",
      "deploy/*.enc.yaml diff=sopsdiffer",
      "[attr]secret filter=git-crypt diff=git-crypt",
      "vault/** secret",
      "*.png binary",
      "*.docx diff=pandoc",
      "*.ts text eol=lf",
    ].join("\n");
    assert.deepEqual(encryptedPatterns(attributes), ["config/prod.yaml", "*.secret.json", "deploy/*.enc.yaml", "vault/**"]);
    const rules = new SensitiveFiles([...DEFAULT_SENSITIVE_FILES, ...encryptedPatterns(attributes)]);
    assert.deepEqual(["config/prod.yaml", "a/b.secret.json", "vault/x/key.txt", "src/app.ts", "doc.docx"].map((p) => rules.isSensitive(p)), [true, true, true, false, false]);
  });

  it("a git diff that decrypts through its textconv (git-crypt's diff driver) shows the file without its secret, for the agent and @git", () => {
    const root = mkdtempSync(join(tmpdir(), "wisp-encrypted-"));
    try {
      const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: root, encoding: "utf8" });
      git("init", "--quiet");
      // git-crypt's own diff driver decrypts; base64 -d stands in for it.
      git("config", "diff.git-crypt.textconv", "base64 -d");
      const attributes = "config/prod.yaml filter=git-crypt diff=git-crypt\n";
      writeFileSync(join(root, ".gitattributes"), attributes);
      mkdirSync(join(root, "config"));
      writeFileSync(join(root, "config/prod.yaml"), Buffer.from("db_password: old-secret\n").toString("base64"));
      writeFileSync(join(root, "app.ts"), "let a = 1;\n");
      git("add", ".");
      git("commit", "--quiet", "-m", "x");
      writeFileSync(join(root, "config/prod.yaml"), Buffer.from("db_password: hunter2-rotated\n").toString("base64"));
      writeFileSync(join(root, "app.ts"), "let a = 2;\n");
      const diff = git("diff");
      assert.match(diff, /\+db_password: hunter2-rotated/, "git diff shows it decrypted");
      const rules = new SensitiveFiles([...DEFAULT_SENSITIVE_FILES, ...encryptedPatterns(attributes)]);
      const isSensitive = (path: string) => rules.isSensitive(path);
      for (const shown of [withoutSensitiveDiffs(diff, isSensitive), gitContextText(diff, isSensitive, 100_000)]) {
        assert.ok(!shown.includes("hunter2"), shown);
        assert.match(shown, /\+let a = 2;/);
        assert.match(shown, /config\/prod\.yaml/, "named as left out");
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
