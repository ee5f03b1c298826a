import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TempDirs } from "../harness/temp-dirs";
import { repoRoot } from "../harness/toolchain";

/** What `npm ci` reads, and what the project's postinstall (scripts/build-native.mjs) builds from. */
const installInputs = ["package.json", "package-lock.json", ".npmrc", "scripts", "native"];

/** The oldest npm package.json's engines.npm accepts: the one the oldest Node in engines.node ships. */
function oldestNpm(): string {
  const range = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")).engines.npm as string;
  const version = /^>=(\d+\.\d+\.\d+)$/.exec(range)?.[1];
  assert.ok(version, `engines.npm is ${range}, not >=x.y.z`);
  return version;
}

/** `npm ci` in a fresh copy of the project with the npm `npmCommand()` runs (made in a before hook). */
function npmCiSuite(title: string, npmCommand: (temp: TempDirs) => string[]) {
  describe(`npm ci in a fresh copy of the project, ${title}`, function () {
    // npm ci takes 2-3 minutes; several times that on a machine busy with other work.
    this.timeout(1_800_000);
    const temp = new TempDirs();
    let dir: string;
    let output: string;
    /** Runs `script` as a module file in the copy (node-llama-cpp's binary check forks with the parent's flags, which -e breaks). */
    const run = (name: string, script: string) => {
      writeFileSync(join(dir, name), script);
      return spawnSync(process.execPath, [name], { cwd: dir, env: freshNpmEnv(), encoding: "utf8" });
    };

    before(() => {
      const [command, ...args] = npmCommand(temp);
      dir = temp.make("npm-ci");
      for (const input of installInputs) cpSync(join(repoRoot, input), join(dir, input), { recursive: true });
      // --loglevel=info names every install script that runs; the local cache keeps it offline.
      const result = spawnSync(command!, [...args, "ci", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=info"], { cwd: dir, env: freshNpmEnv(), encoding: "utf8" });
      output = `${result.stdout}${result.stderr}`;
      assert.equal(result.status, 0, output.slice(-4000));
    });
    after(() => temp.removeAll());

    it("prints no npm warning", () => {
      // A machine's own ~/.npmrc or global npmrc may hold keys this npm does not know: not the project's.
      const warnings = output.split("\n").filter((line) => /^npm warn/i.test(line) && !/Unknown (user|global) config/.test(line));
      assert.deepEqual(warnings, []);
    });

    it("does not run onnxruntime-node's install script, which downloads CUDA libraries; its CPU engine loads", () => {
      assert.match(output, /npm info run node-llama-cpp@[\d.]+ postinstall/, "npm printed the install scripts it ran");
      assert.doesNotMatch(output, /npm info run onnxruntime-node@/);
      const bin = join(dir, "node_modules/onnxruntime-node/bin/napi-v6", process.platform, process.arch);
      assert.ok(existsSync(bin), bin);
      assert.deepEqual(readdirSync(bin).filter((name) => /providers|cuda|tensorrt/.test(name)), []);
      const ort = run("ort-check.cjs", "const ort = require('onnxruntime-node'); console.log(typeof ort.InferenceSession.create);");
      assert.equal(ort.stdout.trim(), "function", ort.stderr);
    });

    it("installs working node-llama-cpp and esbuild", () => {
      const llama = run("llama-check.mjs", "import { getLlama } from 'node-llama-cpp';\nconst llama = await getLlama({ gpu: false, build: 'never', logLevel: 'error' });\nconsole.log(llama.buildType);\nawait llama.dispose();\n");
      assert.equal(llama.stdout.trim(), "prebuilt", llama.stderr);
      const esbuild = run("esbuild-check.cjs", "console.log(require('esbuild').transformSync('let a: number = 1', { loader: 'ts' }).code);");
      assert.equal(esbuild.stdout.trim(), "let a = 1;", esbuild.stderr);
    });
  });
}

npmCiSuite("with this machine's npm", () => ["npm"]);

npmCiSuite(`with the oldest npm engines.npm accepts (${oldestNpm()}, Node 20.19's)`, (temp) => {
  // From the registry into a folder of its own, run by this machine's node.
  const prefix = temp.make("oldest-npm");
  const installed = spawnSync("npm", ["install", "--prefix", prefix, "--prefer-offline", "--no-audit", "--no-fund", `npm@${oldestNpm()}`], { env: freshNpmEnv(), encoding: "utf8" });
  assert.equal(installed.status, 0, `${installed.stdout}${installed.stderr}`.slice(-4000));
  const cli = join(prefix, "node_modules/npm/bin/npm-cli.js");
  const version = spawnSync(process.execPath, [cli, "--version"], { encoding: "utf8" });
  assert.equal(version.stdout.trim(), oldestNpm());
  return [process.execPath, cli];
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
