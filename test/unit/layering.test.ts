import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative, sep } from "node:path";
import ts from "typescript";

const root = join(import.meta.dirname, "..", "..");
const src = join(root, "src");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|tsx|mts|cts)$/.test(name) ? [path] : [];
  });
}

/**
 * Module specifiers of every import, export-from, dynamic import and require in a file, as the
 * TypeScript compiler reads them: an import written inside a string (a code snippet the console
 * shows) is text, not this file's import.
 */
function importsOf(code: string): string[] {
  return ts.preProcessFile(code, true, true).importedFiles.map((f) => f.fileName);
}

const nodeBuiltins = new Set(["fs", "path", "os", "http", "https", "net", "child_process", "crypto", "url", "util", "stream", "events", "worker_threads", "buffer", "process", "timers"]);

/**
 * src/server's layers, lowest first: a file imports from its own layer and the ones below, never
 * from above, so the server reads top-down. Paths are relative to src/server (a folder ends in /).
 */
const serverLayers: readonly (readonly string[])[] = [
  ["errors.ts", "drain-body.ts", "atomic-file.ts", "busy-retry.ts", "engine-input-error.ts", "json-schema-to-ts-provider.ts", "startup-error.ts", "usable-folder.ts", "model-load-error.ts", "server-version.ts"],
  ["metrics/"],
  ["auth/"],
  ["models/"],
  ["engines/"],
  ["upstreams/", "usage/"],
  ["store/"],
  ["deps.ts"],
  ["routes/", "console/", "host-check.ts", "route-methods.ts", "json-body-parser.ts", "unsupported-endpoints.ts", "api-url.ts", "body-encoding.ts"],
  ["app.ts", "cli-args.ts", "main.ts", "drain.ts"],
];

/** The layer of a path under src/server, or -1 when no layer names it. */
function serverLayer(path: string): number {
  const inServer = path.replace(/^src\/server\//, "").replace(/(\.ts)?$/, ".ts");
  return serverLayers.findIndex((layer) => layer.some((entry) => (entry.endsWith("/") ? inServer.startsWith(entry) : inServer === entry)));
}

/** Imports of `file` (under src/server) that reach a higher layer of src/server. */
function upwardServerImports(file: { path: string; imports: string[] }): string[] {
  const own = serverLayer(file.path);
  return file.imports
    .filter((i) => i.startsWith("."))
    .map((i) => normalize(join(dirname(file.path), i)).split(sep).join("/"))
    .filter((target) => target.startsWith("src/server/") && serverLayer(target) > own)
    .map((target) => `${file.path} (layer ${own}) imports ${target} (layer ${serverLayer(target)})`);
}

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

  it("places every src/server file in one of the server's layers", () => {
    const unplaced = files.filter((f) => f.path.startsWith("src/server/") && serverLayer(f.path) === -1).map((f) => f.path);
    assert.ok(files.some((f) => f.path.startsWith("src/server/")), "no files under src/server");
    assert.deepEqual(unplaced, []);
  });

  it("keeps src/server's imports from running up its layers", () => {
    assert.deepEqual(files.filter((f) => f.path.startsWith("src/server/")).flatMap(upwardServerImports), []);
  });

  it("keeps the database driver in store/postgres and prom-client in metrics/: the rest gets their interfaces from deps", () => {
    const owners: Record<string, string> = { pg: "src/server/store/postgres/", "prom-client": "src/server/metrics/" };
    const offenders = files.flatMap((f) =>
      f.imports.filter((i) => i in owners && !f.path.startsWith(owners[i]!)).map((i) => `${f.path} imports ${i}`),
    );
    assert.deepEqual(offenders, []);
    assert.ok(files.some((f) => f.path.startsWith("src/server/store/postgres/") && f.imports.includes("pg")), "the database store imports pg");
  });

  it("sees an import that runs up the server's layers", () => {
    assert.deepEqual(upwardServerImports({ path: "src/server/deps.ts", imports: ["./routes/schemas", "./models/registry", "node:fs"] }), [
      "src/server/deps.ts (layer 7) imports src/server/routes/schemas (layer 8)",
    ]);
    assert.deepEqual(upwardServerImports({ path: "src/server/engines/text/x.ts", imports: ["../../models/llama-gguf", "../../../core/api/sse"] }), []);
  });

  it("recognises every import form it checks", () => {
    const code = `import a from "vscode";\nimport type { B } from 'node:fs';\nexport { c } from "./c";\nconst d = await import("node:path");\nconst e = require("os");\nimport "./side-effect";`;
    assert.deepEqual(importsOf(code).sort(), ["./c", "./side-effect", "node:fs", "node:path", "os", "vscode"].sort());
  });

  it("takes an import written inside a string (a snippet of code shown to the user) for text, not an import", () => {
    assert.deepEqual(importsOf('const snippet = [`import { writeFileSync } from "node:fs";`, "require(\'os\')"];'), []);
  });
});
