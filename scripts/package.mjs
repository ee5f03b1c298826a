// Packages the extension as .vsix files, offline once the registry's platform packages are cached:
//   npm run package                       this machine's platform
//   npm run package -- --target T [...]   each named VS Code target (linux-x64, darwin-arm64, win32-x64, ...)
//   npm run package -- --universal        wisp-VERSION.vsix: the extension without the local server
//   npm run package -- --all              every target that has engines, and the universal package
// A target's package holds the extension and its webview (the files .vscodeignore selects), the
// local server's bundle with exactly the node_modules files it loads on that platform
// (scripts/package/server-files.mjs: the JavaScript from this checkout, the native engines for
// the target at the lockfile's versions), and the repository's models/ folder when there is one.
// Prints what is in each and how large it is.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { serverRuntimeFiles, supportedTargets, unavailableReason } from "./package/server-files.mjs";
import { hostTarget, universal, vsixFileName } from "./package/vsix-name.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const { values } = parseArgs({ options: { target: { type: "string", multiple: true }, all: { type: "boolean" }, universal: { type: "boolean" } } });
const targets = values.all ? [...supportedTargets(), universal] : [...(values.target ?? []), ...(values.universal ? [universal] : [])];
if (targets.length === 0) targets.push(hostTarget());
for (const target of targets) {
  const reason = target === universal ? undefined : unavailableReason(target);
  if (reason !== undefined) {
    console.error(`npm run package: no package for ${target}: ${reason}. Build the universal package (--universal) for it instead.`);
    process.exit(2);
  }
}
const serverDir = "dist/server";

const vsce = (args, cwd, stdio = "pipe") =>
  execFileSync(process.execPath, [join(root, "node_modules/@vscode/vsce/vsce"), ...args], { cwd, encoding: "utf8", stdio: ["ignore", stdio, "inherit"] });

execFileSync(process.execPath, ["scripts/build.mjs", "--minify"], { cwd: root, stdio: "inherit" });
const own = vsce(["ls", "--no-dependencies"], root).split("\n").filter((line) => line.trim() !== "");
const sizes = [];
for (const target of targets) sizes.push([target, await packageTarget(target)]);
if (sizes.length > 1) {
  console.log("\npackages:");
  for (const [target, bytes] of sizes) console.log(`  ${mib(bytes).padStart(10)}  ${vsixFileName(root, target)}`);
}

/** Stages and packages one target; returns the .vsix's size in bytes. */
async function packageTarget(target) {
  const out = join(root, vsixFileName(root, target));
  // vsce ignores a top-level node_modules when told not to walk dependencies, so the server's
  // dependencies sit beside its bundle, where Node looks first: dist/server/node_modules.
  const stage = join(root, "out/vsix", target);
  let contents;
  if (target === universal) {
    // No server, so no engines and no models for it: the extension talks to a server elsewhere.
    contents = own.filter((file) => !file.startsWith(`${serverDir}/`) && !file.startsWith("models/")).map((file) => ({ from: join(root, file), to: file }));
  } else {
    const dependencies = await serverRuntimeFiles(root, serverDir, target);
    contents = [
      ...own.map((file) => ({ from: join(root, file), to: file })),
      ...dependencies.map(({ from, to }) => ({ from, to: join(serverDir, to) })),
      ...nativeStep(target).map((file) => ({ from: join(root, file), to: join(serverDir, file) })),
    ];
  }
  rmSync(stage, { recursive: true, force: true });
  for (const { from, to } of contents) {
    mkdirSync(dirname(join(stage, to)), { recursive: true });
    copyFileSync(from, join(stage, to));
  }
  // Everything staged ships (this file itself never does).
  writeFileSync(join(stage, ".vscodeignore"), "# The stage holds exactly what ships: see scripts/package.mjs.\n");
  rmSync(out, { force: true });
  // The README links to docs/ by relative paths, which ship beside it; with no repository URL to
  // rewrite them against, vsce would otherwise refuse to package.
  vsce(["package", "--no-dependencies", "--allow-missing-repository", "--no-rewrite-relative-links", ...(target === universal ? [] : ["--target", target]), "--out", out], stage, "ignore");

  console.log(`\n${target}:`);
  printContents(contents.map(({ to }) => to), stage);
  if (target !== universal) console.log("  (vsce's warning about many JavaScript files counts the server's dependencies: they run in the server's own process, not in the extension host)");
  const bytes = statSync(out).size;
  console.log(`packaged ${out} for ${target === universal ? "every platform, without the local server" : target}: ${mib(bytes)} (${contents.length} files)`);
  return bytes;
}

/**
 * The native generation step, where this machine built it for its own platform
 * (scripts/build-native.mjs); the server finds it beside its bundle. Other targets' servers run
 * generation steps on node-llama-cpp's thread pool, and say so in their log.
 */
function nativeStep(target) {
  const files = ["build/native/decode-step.node", "build/native/decode-step.json"].filter((file) => existsSync(join(root, file)));
  if (target === hostTarget()) return files;
  console.log(`${target}: the native decode step is built for ${hostTarget()} only; this package's server uses node-llama-cpp's thread pool`);
  return [];
}

/** One line per part: the extension, the server bundle, each native engine, the other JS, models. */
function printContents(files, dir) {
  const parts = new Map();
  for (const file of files) {
    const part = partOf(file);
    const entry = parts.get(part) ?? { files: 0, bytes: 0 };
    entry.files++;
    entry.bytes += statSync(join(dir, file)).size;
    parts.set(part, entry);
  }
  console.log("contents (uncompressed):");
  for (const [part, { files: n, bytes }] of [...parts].sort((a, b) => b[1].bytes - a[1].bytes)) {
    console.log(`  ${mib(bytes).padStart(10)}  ${String(n).padStart(4)} files  ${part}`);
  }
}

function partOf(file) {
  const modules = `${serverDir}/node_modules/`;
  if (file.startsWith(modules)) {
    const pkg = /^((?:@[^/]+\/)?[^/]+)/.exec(file.slice(modules.length))[1];
    return ["node-llama-cpp", "onnxruntime-node", "sharp"].includes(pkg) || /^@(node-llama-cpp|img)\//.test(pkg) && pkg !== "@img/colour"
      ? `${modules}${pkg}`
      : `${modules}… JavaScript dependencies of node-llama-cpp, onnxruntime-node and sharp`;
  }
  if (file.startsWith(`${serverDir}/build/`)) return `${serverDir}/build/native (the server's native generation step)`;
  if (file.startsWith(`${serverDir}/`)) return `${serverDir}/*.js (the local server's bundle)`;
  if (file.startsWith("models/")) return "models/ (shipped models)";
  return "the extension (dist/extension.cjs, webview, media, package.json, README, docs, LICENSE)";
}

function mib(bytes) {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : `${(bytes / 1024).toFixed(1)} KiB`;
}
