import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";

// The extension ships as one esbuild bundle: the shell parser (GopherJS output) must work from it,
// and must not leave Error.stackTraceLimit at Infinity for the whole extension host.
describe("core/agent: the command policy bundled as the extension is", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "wisp-policy-bundle-"));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("decides from a CommonJS bundle, with the process's stack trace limit unchanged", async () => {
    const outfile = join(dir, "policy.cjs");
    await build({ entryPoints: [join(import.meta.dirname, "../../../src/core/agent/command-policy.ts")], bundle: true, outfile, platform: "node", format: "cjs", target: "node20", logLevel: "silent" });
    const script = `
      Error.stackTraceLimit = 42;
      const { decideCommand, defaultDenyRules } = require(${JSON.stringify(outfile)});
      const policy = { autoApprove: ["npm test"], deny: defaultDenyRules };
      console.log(JSON.stringify({
        deny: decideCommand("npm test && bash -c 'rm -rf /'", policy),
        allow: decideCommand("npm test", policy).kind,
        limit: Error.stackTraceLimit,
      }));`;
    const result = JSON.parse(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" })) as { deny: unknown; allow: string; limit: number };
    assert.deepEqual(result, {
      deny: { kind: "deny", subcommand: "rm -rf /", reason: "it deletes the whole filesystem recursively", rule: "rm -rf /" },
      allow: "allow",
      limit: 42,
    });
  });
});
