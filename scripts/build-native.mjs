// Builds build/native/decode-step.node (native/decode-step.cpp) against the installed
// node-llama-cpp: its addon headers, node-addon-api, and the llama.cpp headers of the very source it
// ships (its git bundle). Runs after `npm ci` (postinstall) and as `npm run build:native`; a few
// seconds. Optional: where it cannot build (not Linux, no C++ compiler, no Node headers), it says why
// and the server keeps node-llama-cpp's own calls for generation steps.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const outDir = join(root, "build/native");
const started = Date.now();
const say = (line) => console.log(`[build-native] ${line}`);

function skip(reason) {
  say(`decode-step not built: ${reason}. The server runs generation steps through node-llama-cpp's thread pool instead.`);
  rmSync(outDir, { recursive: true, force: true });
  process.exit(0);
}

if (process.platform !== "linux") skip(`it is built on Linux only (this is ${process.platform})`);
const nodeLlamaCpp = dirname(dirname(createRequire(join(root, "package.json")).resolve("node-llama-cpp")));
const version = JSON.parse(readFileSync(join(nodeLlamaCpp, "package.json"), "utf8")).version;
const addonHeaders = join(nodeLlamaCpp, "llama/addon");
const bundle = join(nodeLlamaCpp, "llama/gitRelease.bundle");
const addonApi = join(root, "node_modules/node-addon-api");
// This Node's own headers where they are installed, else the Node-API headers package that
// node-llama-cpp's build tooling brings along (Node-API is the same across Node versions).
const nodeHeaders = [join(dirname(process.execPath), "../include/node"), "/usr/include/node", "/usr/local/include/node", join(root, "node_modules/node-api-headers/include")].find((dir) =>
  existsSync(join(dir, "node_api.h")),
);
const compiler = process.env.CXX ?? "g++";

if (!existsSync(join(addonHeaders, "AddonContext.h"))) skip(`node-llama-cpp ${version} has no addon headers`);
if (!existsSync(bundle)) skip(`node-llama-cpp ${version} has no llama.cpp source bundle`);
if (!existsSync(join(addonApi, "napi.h"))) skip("node-addon-api is not installed");
if (nodeHeaders === undefined) skip("no Node-API headers (node_api.h) next to this Node, in /usr/include/node or in node_modules/node-api-headers");
if (spawnSync(compiler, ["--version"], { stdio: "ignore" }).status !== 0) skip(`no C++ compiler (${compiler})`);
if (spawnSync("git", ["--version"], { stdio: "ignore" }).status !== 0) skip("git is not installed (it reads the llama.cpp headers from node-llama-cpp's bundle)");

const source = mkdtempSync(join(tmpdir(), "wisp-llama-headers-"));
let problem;
try {
  // Only the headers: a clone without a checkout, then the two include folders.
  execFileSync("git", ["clone", "--quiet", "--no-checkout", bundle, source], { stdio: "pipe" });
  execFileSync("git", ["-C", source, "checkout", "--quiet", "HEAD", "--", "include", "ggml/include"], { stdio: "pipe" });
  mkdirSync(outDir, { recursive: true });
  const args = [
    "-std=c++17", "-O2", "-shared", "-fPIC", "-fexceptions", "-fvisibility=hidden",
    "-DNAPI_VERSION=7", "-DNAPI_CPP_EXCEPTIONS",
    `-I${nodeHeaders}`, `-I${addonApi}`, `-I${addonHeaders}`, `-I${join(source, "include")}`, `-I${join(source, "ggml/include")}`,
    join(root, "native/decode-step.cpp"), "-o", join(outDir, "decode-step.node.tmp"), "-ldl",
  ];
  const result = spawnSync(compiler, args, { encoding: "utf8" });
  if (result.status !== 0) problem = `${compiler} failed:\n${(result.stderr || result.stdout).trim()}`;
  // A new file in place of the old: a server running with the old one keeps it.
  else renameSync(join(outDir, "decode-step.node.tmp"), join(outDir, "decode-step.node"));
} catch (error) {
  problem = error instanceof Error ? error.message.split("\n")[0] : String(error);
} finally {
  rmSync(source, { recursive: true, force: true });
}
if (problem !== undefined) skip(problem);
writeFileSync(join(outDir, "decode-step.json"), `${JSON.stringify({ nodeLlamaCpp: version }, null, 2)}\n`);
say(`built build/native/decode-step.node for node-llama-cpp ${version} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
