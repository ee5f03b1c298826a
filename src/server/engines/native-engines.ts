// The native engines the server loads on this platform, and where Node finds them: checked at
// start-up so that a package for another platform (or a checkout without the platform's
// packages) fails with one message naming the platform, not with an engine's own error later.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { platformsWithServer } from "../../core/local-server/no-bundled-server";

/** node-llama-cpp's prebuilt package per platform, and the `gpu` option that selects it. */
const llamaPackages: Record<string, { name: string; gpu: false | "metal" }> = {
  "linux-x64": { name: "linux-x64", gpu: false },
  "linux-arm64": { name: "linux-arm64", gpu: false },
  // Apple silicon's only prebuilt binary is the Metal one (its CPU code runs without a GPU too).
  "darwin-arm64": { name: "mac-arm64-metal", gpu: "metal" },
  "darwin-x64": { name: "mac-x64", gpu: false },
  "win32-x64": { name: "win-x64", gpu: false },
  "win32-arm64": { name: "win-arm64", gpu: false },
};

/** The `gpu` option of node-llama-cpp's getLlama that loads the prebuilt binary shipped for `target`. */
export function llamaGpu(target: string): false | "metal" {
  return llamaPackages[target]?.gpu ?? false;
}

export interface NativeEngine {
  readonly engine: string;
  /** The file that must be there, relative to a node_modules folder. */
  readonly file: string;
}

/** The files that show each engine's binaries are installed for `target` (platform-arch). */
export function nativeEngineFiles(target: string): NativeEngine[] {
  const [platform, arch] = target.split("-");
  const llama = llamaPackages[target]?.name ?? target;
  return [
    { engine: "llama.cpp (node-llama-cpp)", file: `@node-llama-cpp/${llama}/bins/${llama}/llama-addon.node` },
    { engine: "ONNX Runtime (onnxruntime-node)", file: `onnxruntime-node/bin/napi-v6/${platform}/${arch}/onnxruntime_binding.node` },
    { engine: "libvips (sharp)", file: `@img/sharp-${target}/package.json` },
  ];
}

/** The engines of `target` that Node would not find from `from`, looking in each node_modules up the tree as it does. */
export function missingNativeEngines(target: string, from: string, exists: (path: string) => boolean = existsSync): NativeEngine[] {
  return nativeEngineFiles(target).filter(({ file }) => {
    for (let dir = from; ; dir = dirname(dir)) {
      if (exists(join(dir, "node_modules", file))) return false;
      if (dirname(dir) === dir) return true;
    }
  });
}

/** Why the server cannot start on `target`, and which package to install instead. */
export function missingEnginesMessage(target: string, missing: readonly NativeEngine[], packagedTargets: readonly string[] = platformsWithServer): string {
  const which = missing.map(({ engine, file }) => `${engine}: node_modules/${file}`).join("; ");
  const instead = packagedTargets.includes(target)
    ? `Install the Wisp package built for ${target} (wisp-${target}-<version>.vsix), or npm ci on this machine.`
    : `Wisp has no package with the local server for ${target}: install the universal package and point wisp.baseUrl at a server on another machine.`;
  return `no native engines for this platform (${target}) in this installation; missing ${which}. ${instead}`;
}
