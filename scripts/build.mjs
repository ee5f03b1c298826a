// Builds the bundles: the extension (node, CommonJS, `vscode` external), the webview (browser),
// the local server (node ESM, native engines external and shipped beside it) and the server's
// web console (browser script and static files in dist/server/console, so they travel with the
// server bundle and nothing is built at run time).
import { build } from "esbuild";
import { cpSync, existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { consoleJob, copyConsoleFiles } from "./build-console.mjs";

const watch = process.argv.includes("--watch");
const minify = process.argv.includes("--minify");
const common = { bundle: true, sourcemap: true, minify, logLevel: "info", legalComments: "none" };

/** Every file under `dir` whose name matches `pattern`. */
function findEntries(dir, pattern) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return findEntries(path, pattern);
    return pattern.test(name) ? [path] : [];
  });
}

// Flat names: dist/server/main.js and dist/server/<name>-worker.js sit side by side.
const serverEntries = Object.fromEntries(
  ["src/server/main.ts", ...findEntries("src/server", /-worker\.ts$/)]
    .filter(existsSync)
    .map((path) => [basename(path, ".ts"), path]),
);
const webviewEntries = findEntries("src/webview", /^main-[\w-]+\.ts$/);

const jobs = [
  {
    ...common,
    entryPoints: { extension: "src/extension/extension.ts" },
    outdir: "dist",
    outExtension: { ".js": ".cjs" },
    platform: "node",
    format: "cjs",
    target: "node20",
    external: ["vscode"],
    // VS Code's extension host logs an error for every read of the global `navigator` (zod and the
    // openai SDK probe it for a browser): the extension runs in Node, where they take it as absent.
    define: { navigator: "undefined", "globalThis.navigator": "undefined" },
  },
];
if (webviewEntries.length > 0) {
  jobs.push({ ...common, entryPoints: webviewEntries, outdir: "dist/webview", platform: "browser", format: "iife", target: "es2022" });
}
if (Object.keys(serverEntries).length > 0) {
  jobs.push({
    ...common,
    entryPoints: serverEntries,
    outdir: "dist/server",
    platform: "node",
    format: "esm",
    target: "node20",
    // Native engines load their own binaries relative to their package: keep them in node_modules.
    // lifecycle-utils too: the batch decoder takes node-llama-cpp's context lock, which is keyed in
    // that module's own state, so both must load the one copy (a bundled copy locks nothing).
    // pg's optional native binding and its Cloudflare socket are never loaded (pg asks for them
    // only when told to): left out of the bundle, never installed.
    external: ["node-llama-cpp", "@node-llama-cpp/*", "onnxruntime-node", "sharp", "@img/*", "lifecycle-utils", "pg-native", "pg-cloudflare"],
    // CommonJS dependencies bundled into ESM still call require().
    banner: { js: "import { createRequire as __wispCreateRequire } from 'node:module'; const require = __wispCreateRequire(import.meta.url);" },
  });
}

// The database's schema files, read by the server at start (store/postgres/schema.ts).
const migrations = "src/server/store/postgres/migrations";
if (existsSync(migrations)) {
  mkdirSync("dist/server/migrations", { recursive: true });
  for (const name of readdirSync(migrations).filter((n) => n.endsWith(".sql"))) cpSync(join(migrations, name), join("dist/server/migrations", name));
}

if (existsSync("src/console/main.ts")) {
  jobs.push(consoleJob(common));
  copyConsoleFiles();
}

if (watch) {
  const { context } = await import("esbuild");
  for (const job of jobs) await (await context(job)).watch();
} else {
  await Promise.all(jobs.map((job) => build(job)));
}
