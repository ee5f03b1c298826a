// The .vsix file `npm run package` writes: one per VS Code target (it holds native binaries), and
// a universal one without the local server.
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** The target name of the package without native code (vsce's package with no --target). */
export const universal = "universal";

/** This machine as a VS Code target name (linux-x64, darwin-arm64, win32-x64, ...). */
export function hostTarget() {
  return `${process.platform}-${process.arch}`;
}

/** wisp-linux-x64-0.1.0.vsix (vsce's own naming for a platform-specific package), or wisp-0.1.0.vsix. */
export function vsixFileName(root, target = hostTarget()) {
  const { name, version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  return target === universal ? `${name}-${version}.vsix` : `${name}-${target}-${version}.vsix`;
}
