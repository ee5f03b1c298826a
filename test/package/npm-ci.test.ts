import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { TempDirs } from "../harness/temp-dirs";
import { repoRoot } from "../harness/toolchain";

/** What `npm ci` reads, and what the project's postinstall (scripts/build-native.mjs) builds from. */
const installInputs = ["package.json", "package-lock.json", ".npmrc", "scripts", "native"];

describe("npm ci in a fresh copy of the project", function () {
  this.timeout(600_000);
  const temp = new TempDirs();
  let dir: string;
  let output: string;

  before(() => {
    dir = temp.make("npm-ci");
    for (const input of installInputs) cpSync(join(repoRoot, input), join(dir, input), { recursive: true });
    // --loglevel=info names every install script that runs; the local cache keeps it offline.
    const result = spawnSync("npm", ["ci", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=info"], { cwd: dir, env: freshNpmEnv(), encoding: "utf8" });
    output = `${result.stdout}${result.stderr}`;
    assert.equal(result.status, 0, output.slice(-4000));
  });
  after(() => temp.removeAll());

  it("prints no npm warning", () => {
    // A machine's own ~/.npmrc or global npmrc may hold keys this npm does not know: not the project's.
    const warnings = output.split("\n").filter((line) => /^npm warn/i.test(line) && !/Unknown (user|global) config/.test(line));
    assert.deepEqual(warnings, []);
  });

  it("does not run onnxruntime-node's install script, which downloads CUDA libraries", () => {
    assert.match(output, /npm info run node-llama-cpp@[\d.]+ postinstall/, "npm printed the install scripts it ran");
    assert.doesNotMatch(output, /npm info run onnxruntime-node@/);
    const bin = join(dir, "node_modules/onnxruntime-node/bin/napi-v6", process.platform, process.arch);
    assert.ok(existsSync(bin), bin);
    assert.deepEqual(readdirSync(bin).filter((name) => /providers/.test(name)), []);
  });
});

/**
 * This process's environment without what a parent npm (`npm run test:package`) exported: its
 * config as npm_config_* would override the copy's .npmrc. Where the cache and the user's
 * config live stays, and so does the registry.
 */
function freshNpmEnv(): NodeJS.ProcessEnv {
  const kept = new Set(["npm_config_cache", "npm_config_userconfig", "npm_config_globalconfig", "npm_config_registry"]);
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !(/^npm_/i.test(key) && !kept.has(key.toLowerCase())) && !/^ONNXRUNTIME_NODE_INSTALL/.test(key)));
}
