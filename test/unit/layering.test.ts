import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";

const root = join(import.meta.dirname, "..", "..");
const src = join(root, "src");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|tsx|mts|cts)$/.test(name) ? [path] : [];
  });
}

/** Module specifiers of every import, export-from, dynamic import and require in a file. */
function importsOf(code: string): string[] {
  const found: string[] = [];
  const patterns = [
    /\bimport\s+(?:type\s+)?(?:[\w*{}\s,$]+\s+from\s+)?["']([^"']+)["']/g,
    /\bexport\s+(?:type\s+)?[\w*{}\s,$]+\s+from\s+["']([^"']+)["']/g,
    /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
    /\brequire\s*\(\s*["']([^"']+)["']\s*\)/g,
  ];
  for (const pattern of patterns) for (const m of code.matchAll(pattern)) found.push(m[1]!);
  return found;
}

const nodeBuiltins = new Set(["fs", "path", "os", "http", "https", "net", "child_process", "crypto", "url", "util", "stream", "events", "worker_threads", "buffer", "process", "timers"]);

describe("layering", () => {
  const files = sources(src).map((path) => ({ path: relative(root, path).split(sep).join("/"), imports: importsOf(readFileSync(path, "utf8")) }));

  it("finds the source tree", () => {
    assert.ok(files.some((f) => f.path.startsWith("src/core/")), "no files under src/core");
    assert.ok(files.some((f) => f.path.startsWith("src/extension/")), "no files under src/extension");
  });

  it("keeps src/core free of vscode and node: imports", () => {
    const offenders = files
      .filter((f) => f.path.startsWith("src/core/"))
      .flatMap((f) => f.imports.filter((i) => i === "vscode" || i.startsWith("node:") || nodeBuiltins.has(i)).map((i) => `${f.path} imports ${i}`));
    assert.deepEqual(offenders, []);
  });

  it("imports vscode only from src/extension", () => {
    const offenders = files
      .filter((f) => !f.path.startsWith("src/extension/"))
      .flatMap((f) => f.imports.filter((i) => i === "vscode").map(() => f.path));
    assert.deepEqual(offenders, []);
  });

  it("keeps src/core from importing the outer layers", () => {
    const offenders = files
      .filter((f) => f.path.startsWith("src/core/"))
      .flatMap((f) => f.imports.filter((i) => /(^|\/)(client|extension|server|webview)(\/|$)/.test(i) && i.startsWith(".")).map((i) => `${f.path} imports ${i}`));
    assert.deepEqual(offenders, []);
  });

  it("keeps src/client independent of the editor and the server", () => {
    const offenders = files
      .filter((f) => f.path.startsWith("src/client/"))
      .flatMap((f) => f.imports.filter((i) => /(^|\/)(extension|server|webview)(\/|$)/.test(i) && i.startsWith(".")).map((i) => `${f.path} imports ${i}`));
    assert.deepEqual(offenders, []);
  });

  it("keeps the console page (src/console, browser code) to core and the DOM", () => {
    const offenders = files
      .filter((f) => f.path.startsWith("src/console/"))
      .flatMap((f) =>
        f.imports
          .filter((i) => i === "vscode" || i.startsWith("node:") || nodeBuiltins.has(i) || (i.startsWith(".") && /(^|\/)(client|extension|server|webview)(\/|$)/.test(i)))
          .map((i) => `${f.path} imports ${i}`),
      );
    assert.ok(files.some((f) => f.path.startsWith("src/console/")), "no files under src/console");
    assert.deepEqual(offenders, []);
  });

  it("recognises every import form it checks", () => {
    const code = `import a from "vscode";\nimport type { B } from 'node:fs';\nexport { c } from "./c";\nconst d = await import("node:path");\nconst e = require("os");\nimport "./side-effect";`;
    assert.deepEqual(importsOf(code).sort(), ["./c", "./side-effect", "node:fs", "node:path", "os", "vscode"].sort());
  });
});
