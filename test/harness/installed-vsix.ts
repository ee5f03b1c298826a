import { cpSync, existsSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { installVsix } from "./code-server";
import { TempDirs } from "./temp-dirs";
import type { Toolchain } from "./toolchain";

/**
 * Puts a packaged .vsix into an extensions folder as `code-server --install-extension` would, for
 * the workbench suites: the real install runs once per package (about 5 s: a CLI start, the unzip,
 * its checks) into the toolchain's cache, and each suite copies the installed folder (a fraction of
 * a second). Without extensions.json, VS Code takes in the folders it finds there on first start,
 * as it does the fixture extensions. test/e2e/packaged-server.test.ts runs the real install itself.
 */
export function installVsixCopy(toolchain: Toolchain, vsix: string, extensionsDir: string): void {
  const { mtimeMs, size } = statSync(vsix);
  const name = `${basename(vsix, ".vsix")}-${toolchain.editor}`;
  const root = join(toolchain.cacheDir, "installed-vsix");
  const installed = join(root, `${name}-${Math.round(mtimeMs)}-${size}`);
  if (!existsSync(installed)) installOnce(toolchain, vsix, root, name, installed);
  for (const entry of readdirSync(installed, { withFileTypes: true })) {
    if (entry.isDirectory() && !entry.name.startsWith(".")) cpSync(join(installed, entry.name), join(extensionsDir, entry.name), { recursive: true });
  }
}

function installOnce(toolchain: Toolchain, vsix: string, root: string, name: string, installed: string): void {
  // Earlier builds of the same package go: the cache keeps one per package and editor.
  if (existsSync(root)) for (const old of readdirSync(root).filter((entry) => entry.startsWith(`${name}-`))) rmSync(join(root, old), { recursive: true, force: true });
  const temp = new TempDirs();
  try {
    const extensionsDir = `${installed}.partial`;
    installVsix(toolchain, vsix, { home: temp.make("vsix-home"), userDataDir: temp.make("vsix-user-data"), extensionsDir });
    // Whole or not at all: a run stopped in the middle leaves only the .partial folder.
    renameSync(extensionsDir, installed);
  } finally {
    temp.removeAll();
  }
}
