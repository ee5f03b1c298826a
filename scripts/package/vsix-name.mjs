// The .vsix file `npm run package` writes: one per VS Code target (it holds native binaries).
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** This machine as a VS Code target name (linux-x64, darwin-arm64, win32-x64, ...). */
export function hostTarget() {
  return `${process.platform}-${process.arch}`;
}

/** wisp-linux-x64-0.1.0.vsix: vsce's own naming for a platform-specific package. */
export function vsixFileName(root, target = hostTarget()) {
  const { name, version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  return `${name}-${target}-${version}.vsix`;
}
