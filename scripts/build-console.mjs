// The server's web console: its browser script bundled and its static files copied into
// dist/server/console/, beside the server bundle. scripts/build.mjs builds it with everything else;
// run alone (`--if-stale`) it builds only when a source is newer than what dist/ holds, so a suite
// that serves the console (npm run test:server) has it without a whole build.
import { build } from "esbuild";
import { cpSync, existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const outdir = "dist/server/console";
const staticFiles = ["index.html", "console.css"];
/** What the bundle is made of: the console's code, the core modules it imports, its static files. */
const sources = ["src/console", "src/core", "media/console"];

/** The esbuild job for the console script, with the options the other bundles share. */
export function consoleJob(common) {
  return { ...common, entryPoints: { console: "src/console/main.ts" }, outdir, platform: "browser", format: "iife", target: "es2022" };
}

/** Copies the console's static files into place (the script is esbuild's part). */
export function copyConsoleFiles() {
  mkdirSync(outdir, { recursive: true });
  for (const name of staticFiles) cpSync(join("media/console", name), join(outdir, name));
}

function newestChange(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestChange(join(path, name))));
}

/** True when an output is missing or older than some source. */
function stale() {
  const outputs = ["console.js", ...staticFiles].map((name) => join(outdir, name));
  if (!outputs.every(existsSync)) return true;
  const built = Math.min(...outputs.map((path) => statSync(path).mtimeMs));
  return Math.max(...sources.map(newestChange)) > built;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!process.argv.includes("--if-stale") || stale()) {
    copyConsoleFiles();
    await build(consoleJob({ bundle: true, sourcemap: true, logLevel: "warning", legalComments: "none" }));
    console.log(`built the web console into ${outdir}/`);
  }
}
