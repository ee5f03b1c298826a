import { build } from "esbuild";
import { readdirSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import { repoRoot } from "./toolchain";

export const vscodeTestsOutDir = join(repoRoot, "out/test/vscode");

/**
 * Bundles test/vscode (the runner index and every *.test.ts) into CommonJS .cjs files, because the
 * extension host loads the tests module with require() and package.json says "type": "module".
 * Returns the path of the tests module that VS Code calls `run()` on. `suitesDir` (relative to the
 * repository) holds the suites to run instead of test/vscode's, e.g. a benchmark that measures
 * inside the extension host.
 */
export async function buildVscodeTests(suitesDir = "test/vscode"): Promise<string> {
  const srcDir = join(repoRoot, "test/vscode");
  const suites = readdirSync(join(repoRoot, suitesDir)).filter((name) => name.endsWith(".test.ts")).map((name) => join(repoRoot, suitesDir, name));
  // Another folder's suites get their own output, so a benchmark and a test run at once do not swap suites.
  const outdir = suitesDir === "test/vscode" ? vscodeTestsOutDir : join(repoRoot, "out", suitesDir);
  rmSync(outdir, { recursive: true, force: true });
  await build({
    absWorkingDir: repoRoot,
    // Named outputs: suites from another folder land next to index.cjs, where run() looks for them.
    entryPoints: [join(srcDir, "index.ts"), ...suites].map((path) => ({ in: path, out: basename(path, ".ts") })),
    outdir,
    outExtension: { ".js": ".cjs" },
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    // sharp loads its native binary from node_modules: the image tests decode what was saved with it.
    external: ["vscode", "sharp"],
    sourcemap: "inline",
    logLevel: "warning",
    // Bundled mocha mentions its parallel-mode worker files, which the extension host never uses.
    logOverride: { "require-resolve-not-external": "silent" },
  });
  return join(outdir, "index.cjs");
}
