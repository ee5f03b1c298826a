// Packages the extension as a .vsix for this platform, offline: the extension and its webview
// (the files .vscodeignore selects), the local server's bundle with exactly the node_modules
// files it loads here (scripts/package/server-files.mjs), and the repository's models/ folder
// when there is one. Prints what is in it and how large it is.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { serverRuntimeFiles } from "./package/server-files.mjs";
import { hostTarget, vsixFileName } from "./package/vsix-name.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const target = hostTarget();
const out = join(root, vsixFileName(root, target));
// vsce ignores a top-level node_modules when told not to walk dependencies, so the server's
// dependencies sit beside its bundle, where Node looks first: dist/server/node_modules.
const stage = join(root, "out/vsix");
const serverDir = "dist/server";

const vsce = (args, cwd, stdio = "pipe") =>
  execFileSync(process.execPath, [join(root, "node_modules/@vscode/vsce/vsce"), ...args], { cwd, encoding: "utf8", stdio: ["ignore", stdio, "inherit"] });

execFileSync(process.execPath, ["scripts/build.mjs", "--minify"], { cwd: root, stdio: "inherit" });
const own = vsce(["ls", "--no-dependencies"], root).split("\n").filter((line) => line.trim() !== "");
const dependencies = await serverRuntimeFiles(root, serverDir, target);
// The native generation step where this machine built it (scripts/build-native.mjs); the server
// finds it beside its bundle, and without it uses node-llama-cpp's thread pool.
const nativeStep = ["build/native/decode-step.node", "build/native/decode-step.json"].filter((file) => existsSync(join(root, file)));

rmSync(stage, { recursive: true, force: true });
const contents = [
  ...own.map((file) => ({ from: file, to: file })),
  ...dependencies.map((file) => ({ from: file, to: join(serverDir, file) })),
  ...nativeStep.map((file) => ({ from: file, to: join(serverDir, file) })),
];
for (const { from, to } of contents) {
  mkdirSync(dirname(join(stage, to)), { recursive: true });
  copyFileSync(join(root, from), join(stage, to));
}
// Everything staged ships (this file itself never does).
writeFileSync(join(stage, ".vscodeignore"), "# The stage holds exactly what ships: see scripts/package.mjs.\n");
rmSync(out, { force: true });
vsce(["package", "--no-dependencies", "--allow-missing-repository", "--target", target, "--out", out], stage, "ignore");

printContents(contents.map(({ to }) => to), stage);
console.log("  (vsce's warning about many JavaScript files counts the server's dependencies: they run in the server's own process, not in the extension host)");
console.log(`packaged ${out} for ${target}: ${mib(statSync(out).size)} (${contents.length} files)`);

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
  console.log("\ncontents (uncompressed):");
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
  return "the extension (dist/extension.cjs, webview, media, package.json, README, LICENSE)";
}

function mib(bytes) {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : `${(bytes / 1024).toFixed(1)} KiB`;
}
