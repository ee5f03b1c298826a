import * as assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
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

/** A command's exit status and its output, stdout then stderr. */
function run(command: string, args: string[], cwd?: string): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: freshNpmEnv(), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, output: `${stdout}${stderr}` }));
  });
}

/** `npm ci` in a fresh copy of the project with the npm `npmCommand` gives; resolves to the copy and npm's output. */
async function npmCi(temp: TempDirs, npmCommand: Promise<string[]>): Promise<{ dir: string; output: string }> {
  const [command, ...args] = await npmCommand;
  const dir = temp.make("npm-ci");
  for (const input of installInputs) cpSync(join(repoRoot, input), join(dir, input), { recursive: true });
  // --loglevel=info names every install script that runs; the local cache keeps it offline.
  const result = await run(command!, [...args, "ci", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=info"], dir);
  assert.equal(result.status, 0, result.output.slice(-4000));
  return { dir, output: result.output };
}

/** The oldest npm, from the registry into a folder of its own, run by this machine's node. */
async function oldestNpmCommand(temp: TempDirs): Promise<string[]> {
  const prefix = temp.make("oldest-npm");
  const installed = await run("npm", ["install", "--prefix", prefix, "--prefer-offline", "--no-audit", "--no-fund", `npm@${oldestNpm()}`]);
  assert.equal(installed.status, 0, installed.output.slice(-4000));
  const cli = join(prefix, "node_modules/npm/bin/npm-cli.js");
  const version = spawnSync(process.execPath, [cli, "--version"], { encoding: "utf8" });
  assert.equal(version.stdout.trim(), oldestNpm());
  return [process.execPath, cli];
}

describe("npm ci in a fresh copy of the project", function () {
  // npm ci takes 2-3 minutes; several times that on a machine busy with other work.
  this.timeout(1_800_000);
  const temp = new TempDirs();
  const installs: Partial<Record<"current" | "oldest", Promise<{ dir: string; output: string }>>> = {};

  before(() => {
    // Both at once: npm waits on the disk and the cache much of the time, so two share the machine well.
    installs.current = npmCi(temp, Promise.resolve(["npm"]));
    installs.oldest = npmCi(temp, oldestNpmCommand(temp));
    // Awaited by each suite's own hook; a failure is reported there.
    for (const install of Object.values(installs)) install.catch(() => undefined);
  });
  after(() => temp.removeAll());

  npmCiSuite("with this machine's npm", () => installs.current!);
  npmCiSuite(`with the oldest npm engines.npm accepts (${oldestNpm()}, Node 20.19's)`, () => installs.oldest!);
});

/** The checks of one `npm ci` (started by the enclosing suite's hook). */
function npmCiSuite(title: string, install: () => Promise<{ dir: string; output: string }>) {
  describe(title, () => {
    let dir: string;
    let output: string;
    /** Runs `script` as a module file in the copy (node-llama-cpp's binary check forks with the parent's flags, which -e breaks). */
    const runIn = (name: string, script: string) => {
      writeFileSync(join(dir, name), script);
      return spawnSync(process.execPath, [name], { cwd: dir, env: freshNpmEnv(), encoding: "utf8" });
    };

    before(async () => {
      ({ dir, output } = await install());
    });

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
      const ort = runIn("ort-check.cjs", "const ort = require('onnxruntime-node'); console.log(typeof ort.InferenceSession.create);");
      assert.equal(ort.stdout.trim(), "function", ort.stderr);
    });

    it("installs working node-llama-cpp and esbuild", () => {
      const llama = runIn("llama-check.mjs", "import { getLlama } from 'node-llama-cpp';\nconst llama = await getLlama({ gpu: false, build: 'never', logLevel: 'error' });\nconsole.log(llama.buildType);\nawait llama.dispose();\n");
      assert.equal(llama.stdout.trim(), "prebuilt", llama.stderr);
      const esbuild = runIn("esbuild-check.cjs", "console.log(require('esbuild').transformSync('let a: number = 1', { loader: 'ts' }).code);");
      assert.equal(esbuild.stdout.trim(), "let a = 1;", esbuild.stderr);
    });
  });
}

/**
 * This process's environment without what a parent npm (`npm run test:package`) exported: its
 * config as npm_config_* would override the copy's .npmrc. Where the cache and the user's
 * config live stays, and so does the registry.
 */
function freshNpmEnv(): NodeJS.ProcessEnv {
  const kept = new Set(["npm_config_cache", "npm_config_userconfig", "npm_config_globalconfig", "npm_config_registry"]);
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !(/^npm_/i.test(key) && !kept.has(key.toLowerCase())) && !/^ONNXRUNTIME_NODE_INSTALL/.test(key)));
}
