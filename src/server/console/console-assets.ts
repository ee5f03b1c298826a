// The console's static files, bundled at build time into dist/server/console/ (beside the
// server bundle, so they ship wherever it does) and read once at start.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export interface ConsoleAsset {
  readonly body: Buffer;
  readonly type: string;
}

const files: Record<string, string> = {
  "index.html": "text/html; charset=utf-8",
  "console.js": "text/javascript; charset=utf-8",
  "console.css": "text/css; charset=utf-8",
};

/**
 * dist/server/console/ seen from the server bundle (dist/server/main.js), or from this source
 * file when the server runs from TypeScript (tests).
 */
export function consoleAssetsDir(moduleUrl: string = import.meta.url): string {
  const relative = moduleUrl.endsWith(".ts") ? "../../../dist/server/console/" : "./console/";
  return fileURLToPath(new URL(relative, moduleUrl));
}

/** The files by name; undefined when the console was not built (`npm run build`). */
export function loadConsoleAssets(dir = consoleAssetsDir()): Map<string, ConsoleAsset> | undefined {
  if (!Object.keys(files).every((name) => existsSync(`${dir}/${name}`))) return undefined;
  return new Map(Object.entries(files).map(([name, type]) => [name, { body: readFileSync(`${dir}/${name}`), type }]));
}
