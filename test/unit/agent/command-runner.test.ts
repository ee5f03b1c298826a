import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCommand } from "../../../src/extension/agent/command-runner";

describe("a command's output for the model, masked before its middle is cut", () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "wisp-runner-"));
    // 3,000 characters of log, a key of 20 lines, a short tail: with 1,000 kept (600 of them at the end), the BEGIN line falls in the cut middle.
    const lines = [
      ...Array.from({ length: 100 }, (_, i) => `step ${String(i).padStart(3, "0")}: copying files........`),
      "-----BEGIN OPENSSH PRIVATE KEY-----",
      ...Array.from({ length: 20 }, (_, i) => `b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAAB${i}`),
      "-----END OPENSSH PRIVATE KEY-----",
      "export DEPLOY_TOKEN=tok-12345",
      "Error loading key: invalid format",
    ];
    writeFileSync(join(dir, "print.js"), `process.stdout.write(${JSON.stringify(`${lines.join("\n")}\n`)});`);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const run = (maskSecrets: boolean) =>
    runCommand({ command: `"${process.execPath}" print.js`, cwd: dir, timeoutMs: 20_000, maxOutputChars: 1_000, signal: new AbortController().signal, onOutput: () => {}, maskSecrets });

  it("the model gets no line of a key whose BEGIN line was cut away; the card gets the output as it is", async () => {
    const result = await run(true);
    assert.equal(result.exitCode, 0);
    assert.ok(result.modelOutput.includes("characters cut"), result.modelOutput);
    assert.ok(!result.modelOutput.includes("b3BlbnNzaC1rZXkt") && !result.modelOutput.includes("tok-12345"), result.modelOutput);
    assert.ok(result.modelOutput.endsWith("[masked]\nexport DEPLOY_TOKEN=[masked]\nError loading key: invalid format\n"), result.modelOutput);
    assert.ok(result.output.includes("b3BlbnNzaC1rZXkt"), "the card shows what the command printed");
  });

  it("without masking asked for (agent mode), the model gets the output as the card does", async () => {
    const result = await run(false);
    assert.equal(result.modelOutput, result.output);
  });
});
