import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

/**
 * Where the image worker starts. In the server bundle it is dist/server/image-worker.js beside
 * main.js (scripts/build.mjs bundles every *-worker.ts); from TypeScript sources (tests, tsx
 * scripts) it is image-worker.ts, and since worker threads do not inherit tsx's loader on
 * Node 20, a small bootstrap registers it first.
 */
export function imageWorkerEntry(moduleUrl: string = import.meta.url): URL {
  if (!moduleUrl.endsWith(".ts")) return new URL("./image-worker.js", moduleUrl);
  const source = new URL("./image-worker.ts", moduleUrl).href;
  const code = `const { register } = await import(${JSON.stringify(tsxRegisterApi(moduleUrl))}); register(); await import(${JSON.stringify(source)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(code)}`);
}

/** tsx's ESM `register` API, looked up through its package exports (require() would pick the CJS one). */
function tsxRegisterApi(moduleUrl: string): string {
  const manifest = createRequire(moduleUrl).resolve("tsx/package.json");
  const exports = JSON.parse(readFileSync(manifest, "utf8")).exports["./esm/api"];
  return pathToFileURL(join(dirname(manifest), exports.import.default ?? exports.import)).href;
}
