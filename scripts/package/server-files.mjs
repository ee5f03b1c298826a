// Which node_modules files the local server loads at run time, so that the .vsix ships exactly
// those: the JavaScript its bundles import (followed by esbuild, resolved as Node resolves it),
// the package.json files Node reads on the way, the few data files read with fs, and this
// platform's native binaries, which the engines load by a computed path.
import { build } from "esbuild";
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";

/** Native binaries per VS Code target: folders shipped whole (CPU builds only, no CUDA/Vulkan). */
const nativeFolders = {
  "linux-x64": [
    "node_modules/@node-llama-cpp/linux-x64",
    "node_modules/onnxruntime-node/bin/napi-v6/linux/x64",
    "node_modules/@img/sharp-linux-x64",
    "node_modules/@img/sharp-libvips-linux-x64",
  ],
};

/** Read with fs, not imported: node-llama-cpp's release info (which prebuilt binary) and its GBNF grammars (json_object). */
const dataPaths = [
  "node_modules/node-llama-cpp/llama/binariesGithubRelease.json",
  "node_modules/node-llama-cpp/llama/llama.cpp.info.json",
  "node_modules/node-llama-cpp/llama/grammars",
];

/** Package names the engines import by a computed name: left to `nativeFolders`. */
const platformPackages = ["@node-llama-cpp/*", "@img/sharp-*"];

export function supportedTargets() {
  return Object.keys(nativeFolders);
}

/**
 * Files (relative to `rootDir`, under node_modules/) that the server bundles in `serverDir` load on
 * `target`. Throws when this checkout lacks the target's native packages.
 */
export async function serverRuntimeFiles(rootDir, serverDir, target) {
  const folders = nativeFolders[target];
  if (folders === undefined) throw new Error(`no native engines known for ${target} (known: ${supportedTargets().join(", ")})`);
  const missing = folders.filter((folder) => !existsSync(join(rootDir, folder)));
  if (missing.length > 0) throw new Error(`the native engines for ${target} are not installed: ${missing.join(", ")} (npm ci on a ${target} machine)`);

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
    // Native binaries named in code for every platform (one require per platform) come from `nativeFolders` only.
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
  for (const path of [...dataPaths, ...folders]) {
    for (const file of walk(join(rootDir, path))) if (!/\.(d\.[cm]?ts|map|md)$/i.test(file)) files.add(relative(rootDir, file));
    packages.add(packageRoot(`${path}/`));
  }
  // Their licences travel with them.
  for (const pkg of packages) {
    for (const name of readdirSync(join(rootDir, pkg))) if (/^(licen[cs]e|notice|copying)/i.test(name)) files.add(join(pkg, name));
  }
  return [...files].sort();
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
