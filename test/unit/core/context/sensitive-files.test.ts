import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_SENSITIVE_FILES, SensitiveFiles, namesExplicitly } from "../../../../src/core/context/sensitive-files";

describe("sensitive files (wisp.sensitiveFiles and .wispignore)", () => {
  const defaults = new SensitiveFiles(DEFAULT_SENSITIVE_FILES);

  const table: readonly [string, boolean][] = [
    [".env", true],
    [".env.local", true],
    ["config/.env.production", true],
    ["keys/server.pem", true],
    ["deploy/tls/private.key", true],
    ["certs/client.p12", true],
    ["id_rsa", true],
    ["home/.ssh/id_rsa.pub", true],
    ["home/.ssh/id_ed25519", true],
    ["deploy/id_ecdsa", true],
    ["id_dsa", true],
    ["src/id_generator.ts", false],
    ["aws_credentials.json", true],
    ["config/Credentials.yml", true],
    [".npmrc", true],
    ["packages/web/.npmrc", true],
    [".netrc", true],
    [".ENV", true],
    ["src/app.ts", false],
    ["src/environment.ts", false],
    ["docs/keys.md", false],
    ["README.md", false],
    ["src/.envoy/x.ts", true],
  ];
  for (const [path, sensitive] of table) {
    it(`${path}: ${sensitive ? "sensitive" : "not sensitive"} by default`, () => assert.equal(defaults.isSensitive(path), sensitive));
  }

  it("is the default VS Code gives the setting (package.json), which is what the extension reads", () => {
    const manifest = JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "..", "..", "package.json"), "utf8")) as { contributes: { configuration: { properties: Record<string, { default?: unknown }> } } };
    assert.deepEqual(manifest.contributes.configuration.properties["wisp.sensitiveFiles"]?.default, DEFAULT_SENSITIVE_FILES);
  });

  it("adds .wispignore's patterns, anchored ones at the workspace root and folders with everything in them", () => {
    const rules = new SensitiveFiles(DEFAULT_SENSITIVE_FILES, "# ours\nsecrets.txt\n/local/settings.json\nvault/\n");
    assert.equal(rules.isSensitive("secrets.txt"), true);
    assert.equal(rules.isSensitive("ops/secrets.txt"), true, "a name without a slash matches at any depth");
    assert.equal(rules.isSensitive("local/settings.json"), true);
    assert.equal(rules.isSensitive("app/local/settings.json"), false, "a leading slash anchors at the root");
    assert.equal(rules.isSensitive("vault/db/password.txt"), true, "a folder's pattern covers its files");
    assert.equal(rules.isSensitive("src/app.ts"), false);
  });

  it("a cloned repository's .wispignore cannot take back the user's own secrets: its negations undo only its own patterns", () => {
    const rules = new SensitiveFiles(DEFAULT_SENSITIVE_FILES, "!.env\n!.env.*\n!*.pem\n!id_rsa*\n!*\ndrafts/*\n!drafts/public.md\n");
    for (const secret of [".env", ".env.local", "config/.env.production", "keys/server.pem", "id_rsa", ".npmrc"]) {
      assert.equal(rules.isSensitive(secret), true, `${secret} stays sensitive`);
    }
    assert.equal(rules.isSensitive("drafts/notes.md"), true, "its own pattern applies");
    assert.equal(rules.isSensitive("drafts/public.md"), false, "its own negation takes back its own pattern");
  });

  it("lets the user's setting take back a file its own patterns match (!.env.example)", () => {
    const rules = new SensitiveFiles([...DEFAULT_SENSITIVE_FILES, "!.env.example"]);
    assert.equal(rules.isSensitive(".env.example"), false);
    assert.equal(rules.isSensitive("config/.env.example"), false);
    assert.equal(rules.isSensitive(".env"), true);
  });

  it("applies only the given patterns: an empty setting and no .wispignore mark nothing", () => {
    assert.equal(new SensitiveFiles([]).isSensitive(".env"), false);
    assert.equal(new SensitiveFiles(["*.sqlite"]).isSensitive("data/app.sqlite"), true);
  });

  it("takes ./, leading slashes and backslashes, and judges a path outside the workspace by its name", () => {
    assert.equal(defaults.isSensitive("./config/.env"), true);
    assert.equal(defaults.isSensitive("/config/.env"), true);
    assert.equal(defaults.isSensitive("config\\.env"), true);
    assert.equal(defaults.isSensitive("../elsewhere/.env"), true);
    assert.equal(defaults.isSensitive("../elsewhere/app.ts"), false);
    assert.equal(defaults.isSensitive(""), false);
    assert.equal(defaults.isSensitive("."), false);
  });

  it("offers a sensitive file in the @ list only when the query starts its name or path", () => {
    assert.equal(namesExplicitly(".env", ".env"), true);
    assert.equal(namesExplicitly(".en", "config/.env.production"), true);
    assert.equal(namesExplicitly("config/.e", "config/.env.production"), true);
    assert.equal(namesExplicitly("SEC", "secrets.txt"), true);
    assert.equal(namesExplicitly("", ".env"), false, "an empty query names nothing");
    assert.equal(namesExplicitly("env", ".env"), false, "a fuzzy match is not a name");
    assert.equal(namesExplicitly("app", "config/.env"), false);
  });
});
