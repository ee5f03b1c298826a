import assert from "node:assert/strict";
import { gitContextText } from "../../../../src/core/context/git-context-text";

const diff = [
  "diff --git a/src/client.ts b/src/client.ts",
  "--- a/src/client.ts",
  "+++ b/src/client.ts",
  "@@ -1,3 +1,3 @@ export function connect(token: string) {",
  "-const apiKey = \"old-key-1234\";",
  "+const apiKey = \"ghp_abcdefghijklmnopqrstuvwxyz0123456789\";",
  " if (token === undefined) throw new Error(\"no token\");",
  "diff --git a/deploy/values.yaml b/deploy/values.yaml",
  "--- a/deploy/values.yaml",
  "+++ b/deploy/values.yaml",
  "@@ -4,2 +4,2 @@ db:",
  "-  DB_PASSWORD: hunter2",
  "+  DB_PASSWORD: correct-horse",
  "diff --git a/certs/server.pem b/certs/server.pem",
  "--- a/certs/server.pem",
  "+++ b/certs/server.pem",
  "@@ -0,0 +1,4 @@",
  "+-----BEGIN PRIVATE KEY-----",
  "+MIIEvQIBADANBgkqhkiG9w0BAQEFAASC",
  "+BKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj",
  "+-----END PRIVATE KEY-----",
  "diff --git a/.env b/.env",
  "--- a/.env",
  "+++ b/.env",
  "@@ -1 +1 @@",
  "-SECRET=a",
  "+SECRET=b",
  "",
].join("\n");

describe("@git's diff for the chat", () => {
  const text = gitContextText(diff, (path) => path === ".env", 100_000);

  it("masks literal secrets in code, values in config files and key blocks whole; code that only names a secret stays", () => {
    assert.equal(text, [
      "diff --git a/src/client.ts b/src/client.ts",
      "--- a/src/client.ts",
      "+++ b/src/client.ts",
      "@@ -1,3 +1,3 @@ export function connect(token: string) {",
      "-const apiKey = [masked];",
      "+const apiKey = [masked];",
      " if (token === undefined) throw new Error(\"no token\");",
      "diff --git a/deploy/values.yaml b/deploy/values.yaml",
      "--- a/deploy/values.yaml",
      "+++ b/deploy/values.yaml",
      "@@ -4,2 +4,2 @@ db:",
      "-  DB_PASSWORD: [masked]",
      "+  DB_PASSWORD: [masked]",
      "diff --git a/certs/server.pem b/certs/server.pem",
      "--- a/certs/server.pem",
      "+++ b/certs/server.pem",
      "@@ -0,0 +1,4 @@",
      "+[masked]",
      "+[masked]",
      "+[masked]",
      "+[masked]",
      "(left out, matching wisp.sensitiveFiles/.wispignore: .env)",
    ].join("\n"));
  });

  it("cuts the masked diff at a line's end, so no secret is sent even from the part kept", () => {
    const cut = gitContextText(diff, () => false, 400);
    assert.ok(cut.endsWith("\n… (diff cut at 0.4 KB)"), cut);
    assert.doesNotMatch(cut, /ghp_|hunter2|correct-horse|MIIEvQ/);
  });
});
