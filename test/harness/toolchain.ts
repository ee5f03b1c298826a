import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { editorOf, type Editor } from "./editor";

/** Where the real-VS-Code toolchain lives; scripts/setup/versions.sh is the one source of truth. */
export interface Toolchain {
  root: string;
  /** The current code-server, or the one of the oldest VS Code Wisp supports. */
  editor: Editor;
  cacheDir: string;
  nodeBin: string;
  codeServerBin: string;
  chromiumPath: string;
}

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

const keys = ["CACHE_DIR", "NODE24_BIN", "CODE_SERVER_BIN", "CHROMIUM_PATH", "NODE20_BIN", "OLDEST_CODE_SERVER_BIN"] as const;

export function readToolchain(root = repoRoot, editor = editorOf()): Toolchain {
  const script = `ROOT="$1"; source "$1/scripts/setup/versions.sh"; printf '%s\\n' ${keys.map((k) => `"$${k}"`).join(" ")}`;
  const lines = execFileSync("bash", ["-c", script, "bash", root], { encoding: "utf8" }).trimEnd().split("\n");
  const [cacheDir, node24Bin, currentBin, chromiumPath, node20Bin, oldestBin] = lines;
  return editor === "oldest"
    ? { root, editor, cacheDir, nodeBin: node20Bin, codeServerBin: oldestBin, chromiumPath }
    : { root, editor, cacheDir, nodeBin: node24Bin, codeServerBin: currentBin, chromiumPath };
}

/** Runs the idempotent setup script (about a second when everything is cached). */
export function ensureToolchain(root = repoRoot, editor = editorOf()): Toolchain {
  const result = spawnSync("bash", [join(root, "scripts/setup-vscode.sh")], { stdio: ["ignore", "inherit", "inherit"] });
  if (result.status !== 0) throw new Error(`scripts/setup-vscode.sh failed with ${result.status ?? result.signal}`);
  return readToolchain(root, editor);
}

export function hasChromium(toolchain: Toolchain): boolean {
  return existsSync(toolchain.chromiumPath);
}
