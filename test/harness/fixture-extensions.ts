import { build } from "esbuild";
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "./toolchain";

/** Extensions under test/fixtures that the VS Code tests run beside Wisp (each a package.json and an extension.ts). */
const fixtureExtensions = ["lm-consumer"];

/**
 * Bundles each fixture extension (`names`: folders of test/fixtures) into `extensionsDir` as an
 * installed extension, before VS Code starts (it takes in the folders it finds there on first
 * start). Not as development extensions: the browser workbench keeps only one
 * extensionDevelopmentPath.
 */
export async function installFixtureExtensions(extensionsDir: string, names: readonly string[] = fixtureExtensions): Promise<void> {
  await Promise.all(
    names.map(async (name) => {
      const source = join(repoRoot, "test/fixtures", name);
      const manifest = JSON.parse(readFileSync(join(source, "package.json"), "utf8")) as { publisher: string; name: string; version: string };
      const out = join(extensionsDir, `${manifest.publisher}.${manifest.name}-${manifest.version}`);
      mkdirSync(out, { recursive: true });
      copyFileSync(join(source, "package.json"), join(out, "package.json"));
      await build({
        entryPoints: [join(source, "extension.ts")],
        outfile: join(out, "extension.cjs"),
        bundle: true,
        platform: "node",
        format: "cjs",
        target: "node20",
        external: ["vscode"],
        logLevel: "warning",
      });
    }),
  );
}
