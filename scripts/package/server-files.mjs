// Which node_modules files the local server loads at run time, so that the .vsix ships exactly
// those: the JavaScript its bundles import (followed by esbuild, resolved as Node resolves it),
// the package.json files Node reads on the way, the few data files read with fs, and the target
// platform's native binaries, which the engines load by a computed path.
import { build } from "esbuild";
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { platformPackageDir } from "./platform-packages.mjs";

/**
 * Native engines per VS Code target: [package, folder inside it] shipped whole. CPU builds of
 * llama.cpp (Metal on Apple silicon, where it is the CPU build too); the Vulkan and CUDA variants
 * (80-100 MB each) would more than double a package and stay out. A target with `unavailable`
 * lacks an engine on the registry.
 */
const nativeEngines = {
  "linux-x64": { llama: "@node-llama-cpp/linux-x64", onnx: "linux/x64", sharp: ["@img/sharp-linux-x64", "@img/sharp-libvips-linux-x64"] },
  "linux-arm64": { llama: "@node-llama-cpp/linux-arm64", onnx: "linux/arm64", sharp: ["@img/sharp-linux-arm64", "@img/sharp-libvips-linux-arm64"] },
  "darwin-arm64": { llama: "@node-llama-cpp/mac-arm64-metal", onnx: "darwin/arm64", sharp: ["@img/sharp-darwin-arm64", "@img/sharp-libvips-darwin-arm64"] },
  "darwin-x64": { unavailable: "onnxruntime-node 1.30.0 publishes no darwin/x64 binary (its package holds darwin/arm64 only)" },
  // sharp's Windows packages carry libvips inside.
  "win32-x64": { llama: "@node-llama-cpp/win-x64", onnx: "win32/x64", sharp: ["@img/sharp-win32-x64"] },
  "win32-arm64": { llama: "@node-llama-cpp/win-arm64", onnx: "win32/arm64", sharp: ["@img/sharp-win32-arm64"] },
};

/** Left out of native folders: link-time and debug files, and a second copy of a library under another name. */
const notLoaded = /\.(d\.[cm]?ts|map|md|lib|exp|pdb)$|\/libonnxruntime\.\d+\.\d+\.\d+\.dylib$/i;

/** Read with fs, not imported: node-llama-cpp's release info (which prebuilt binary) and its GBNF grammars (json_object). */
const dataPaths = [
  "node_modules/node-llama-cpp/llama/binariesGithubRelease.json",
  "node_modules/node-llama-cpp/llama/llama.cpp.info.json",
  "node_modules/node-llama-cpp/llama/grammars",
];

/** Package names the engines import by a computed name: left to `nativeFolders`. */
const platformPackages = ["@node-llama-cpp/*", "@img/sharp-*"];

/** Every target a package can be built for. */
export function supportedTargets() {
  return Object.keys(nativeEngines).filter((target) => nativeEngines[target].unavailable === undefined);
}

/** Why no package can be built for `target`, or undefined when one can. */
export function unavailableReason(target) {
  const engines = nativeEngines[target];
  if (engines === undefined) return `no native engines known for ${target} (known: ${supportedTargets().join(", ")})`;
  return engines.unavailable;
}

/** [package, folder inside it] for each native engine of `target`. */
function nativeFolders(target) {
  const { llama, onnx, sharp } = nativeEngines[target];
  return [[llama, ""], ["onnxruntime-node", `bin/napi-v6/${onnx}`], ...sharp.map((pkg) => [pkg, ""])];
}

/**
 * Files the server bundles in `serverDir` load on `target`: { from (absolute), to (node_modules/...) }.
 * The JavaScript comes from this checkout, the native engines from platformPackageDir (installed,
 * cached, or fetched from the registry at the lockfile's version). Throws for a target without engines.
 */
export async function serverRuntimeFiles(rootDir, serverDir, target, log = console.log) {
  const reason = unavailableReason(target);
  if (reason !== undefined) throw new Error(`no package for ${target}: ${reason}`);
  const files = new Map();
  const add = (from, to) => files.set(to.split(sep).join("/"), from);
  for (const file of await javaScriptFiles(rootDir, serverDir)) add(join(rootDir, file), file);
  for (const [pkg, folder] of nativeFolders(target)) {
    const dir = platformPackageDir(rootDir, pkg, { holds: folder, log });
    if (!existsSync(join(dir, folder))) throw new Error(`${pkg} has no ${folder} for ${target} in ${dir}`);
    const files = [...walk(join(dir, folder))];
    // The package's own package.json (Node reads it to load the package) and its licence travel along.
    if (folder !== "") files.push(...readdirSync(dir).filter((name) => /^(package\.json|licen[cs]e|notice|copying)/i.test(name)).map((name) => join(dir, name)));
    for (const file of files) if (!notLoaded.test(file)) add(file, join("node_modules", pkg, relative(dir, file)));
  }
  return [...files].map(([to, from]) => ({ from, to })).sort((a, b) => a.to.localeCompare(b.to));
}

/** The platform-independent files (relative to `rootDir`): the JavaScript the bundles import, data files, licences. */
async function javaScriptFiles(rootDir, serverDir) {
  const entryPoints = readdirSync(join(rootDir, serverDir)).filter((name) => name.endsWith(".js")).map((name) => join(rootDir, serverDir, name));
  const { metafile } = await build({
    absWorkingDir: rootDir,
    entryPoints,
    bundle: true,
    write: false,
    metafile: true,
    outdir: join(rootDir, "out/server-files"),
    platform: "node",
    format: "esm",
    // Resolve as Node does: no bundler-only "module" condition or field.
    conditions: [],
    mainFields: ["main"],
    external: platformPackages,
    loader: { ".node": "empty" },
    logLevel: "error",
  });
  const files = new Set();
  const packages = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    // Native binaries named in code for every platform (one require per platform) come from `nativeEngines` only.
    if (!input.startsWith("node_modules/") || input.endsWith(".node")) continue;
    const file = input.split("/").join(sep);
    files.add(file);
    const pkg = packageRoot(input);
    packages.add(pkg);
    // Node reads every package.json between a module and its package root ("type", "exports").
    for (let dir = dirname(input); dir.length >= pkg.length; dir = dirname(dir)) {
      if (existsSync(join(rootDir, dir, "package.json"))) files.add(join(dir, "package.json"));
    }
  }
  for (const path of dataPaths) {
    for (const file of walk(join(rootDir, path))) if (!notLoaded.test(file)) files.add(relative(rootDir, file));
    packages.add(packageRoot(`${path}/`));
  }
  // Their licences travel with them.
  for (const pkg of packages) {
    for (const name of readdirSync(join(rootDir, pkg))) if (/^(licen[cs]e|notice|copying)/i.test(name)) files.add(join(pkg, name));
  }
  return [...files];
}

/** node_modules/a/node_modules/@b/c/dist/x.js -> node_modules/a/node_modules/@b/c */
function packageRoot(path) {
  const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(path);
  if (match === null) throw new Error(`not inside a package: ${path}`);
  return match[1];
}

/** The file itself, or every file under the folder. */
function* walk(path) {
  if (!statSync(path).isDirectory()) return yield path;
  for (const name of readdirSync(path)) {
    yield* walk(join(path, name));
  }
}
