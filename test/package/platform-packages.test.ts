import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { formatPlatform, readBinaryHeader } from "../../scripts/package/binary-header.mjs";
import { supportedTargets, unavailableReason } from "../../scripts/package/server-files.mjs";
import { universal } from "../../scripts/package/vsix-name.mjs";
import { relativeFileLinks } from "../helpers/markdown-links";
import { TempDirs } from "../harness/temp-dirs";
import { repoRoot } from "../harness/toolchain";
import { ensureVsixes } from "../harness/vsix";
import { zipEntries, type ZipEntry } from "../harness/zip-entries";

/** Largest .vsix allowed for a platform (docs/packages.md): CPU engines only, and the 25M code model (18.4 MiB). */
const budgetMiB = 72;
/**
 * The universal package is the extension alone: this catches an engine, model or binary (tens of
 * MiB) that slips in, with room for the extension's own growth (1.0 MiB in November 2026).
 */
const universalBudgetMiB = 1.5;
/** Files a loader maps: anything with these names must be a binary for the target. */
const nativeName = /\.(node|so(\.[\d.]+)?|dylib|dll|exe)$/;

const server = "extension/dist/server/";
const modules = `${server}node_modules/`;

/** node-llama-cpp's name for a target's prebuilt package (Metal on Apple silicon). */
const llamaPackage: Record<string, string> = {
  "linux-x64": "linux-x64",
  "linux-arm64": "linux-arm64",
  "darwin-arm64": "mac-arm64-metal",
  "win32-x64": "win-x64",
  "win32-arm64": "win-arm64",
};

describe("npm run package -- --all: a package per platform with that platform's engines, and a universal one", function () {
  this.timeout(600_000);
  const targets = supportedTargets();
  const sizes: string[] = [];
  let packages: Map<string, ZipEntry[]>;
  const temp = new TempDirs();

  before(() => {
    const files = ensureVsixes([...targets, universal]);
    packages = new Map([...targets, universal].map((target, i) => [target, zipEntries(files[i]!)]));
    for (const [i, target] of [...targets, universal].entries()) sizes.push(`${(statSync(files[i]!).size / 1024 / 1024).toFixed(1).padStart(6)} MiB  ${files[i]!.split("/").at(-1)} (${target})`);
  });
  after(() => temp.removeAll());
  after(() => console.log(`      sizes:\n${sizes.map((line) => `        ${line}`).join("\n")}`));

  it("covers every platform engineers use, and says why one is left out", () => {
    assert.deepEqual(targets, ["linux-x64", "linux-arm64", "darwin-arm64", "win32-x64", "win32-arm64"]);
    assert.match(unavailableReason("darwin-x64") ?? "", /onnxruntime-node .* no darwin\/x64 binary/);
    assert.match(unavailableReason("freebsd-x64") ?? "", /no native engines known for freebsd-x64/);
  });

  for (const target of ["linux-x64", "linux-arm64", "darwin-arm64", "win32-x64", "win32-arm64"]) {
    const [platform, arch] = target.split("-") as [string, string];
    it(`${target}: every native binary is ${platform === "darwin" ? "Mach-O" : platform === "win32" ? "PE" : "ELF"} ${arch}, with the server, its engines and the models`, () => {
      const entries = packages.get(target)!;
      const names = entries.map((entry) => entry.name);
      const binaries = entries.flatMap((entry) => {
        if (!entry.name.startsWith("extension/")) return [];
        const header = entry.size >= 64 ? readBinaryHeader(entry.read().subarray(0, 4096)) : undefined;
        if (header === undefined) {
          assert.doesNotMatch(entry.name, nativeName, `${entry.name} has a binary's name but no header a loader reads`);
          return [];
        }
        return [{ name: entry.name, ...header }];
      });
      const wrong = binaries.filter((b) => formatPlatform[b.format] !== platform || b.archs.join(",") !== arch).map((b) => `${b.name}: ${b.format} ${b.archs.join("+")}`);
      assert.deepEqual(wrong, [], `binaries for another platform in the ${target} package`);
      // Each engine is there, and the engines' other platforms are not.
      const engines = [
        new RegExp(`^${modules}@node-llama-cpp/${llamaPackage[target]}/bins/[^/]+/llama-addon\\.node$`),
        new RegExp(`^${modules}onnxruntime-node/bin/napi-v6/${platform}/${arch}/onnxruntime_binding\\.node$`),
        new RegExp(`^${modules}@img/sharp-${target}/lib/sharp-${target}-[\\d.]+\\.node$`),
      ];
      for (const engine of engines) assert.ok(binaries.some((b) => engine.test(b.name)), `${engine} in the ${target} package`);
      assert.deepEqual(folders(names, `${modules}@node-llama-cpp/`), [llamaPackage[target]]);
      assert.deepEqual(folders(names, `${modules}onnxruntime-node/bin/napi-v6/`), [platform]);
      assert.deepEqual(folders(names, `${modules}onnxruntime-node/bin/napi-v6/${platform}/`), [arch]);
      assert.deepEqual(folders(names, `${modules}@img/`).filter((name) => name !== "colour"), [`sharp-${target}`, ...(platform === "win32" ? [] : [`sharp-libvips-${target}`])].sort());
      assert.deepEqual(names.filter((name) => /cuda|vulkan/i.test(name)), [], "no GPU variants beyond Metal");
      // Only this machine's own platform gets the native decode step (built here); others use the pool.
      assert.equal(names.includes(`${server}build/native/decode-step.node`), target === "linux-x64");

      for (const file of ["main.js", "image-worker.js", "node_modules/node-llama-cpp/package.json", "node_modules/node-llama-cpp/llama/grammars/json.gbnf", "node_modules/sharp/package.json"]) {
        assert.ok(names.includes(`${server}${file}`), `${server}${file} in the ${target} package`);
      }
      assert.deepEqual(files(names, "extension/models/"), shippedModels());
      assert.deepEqual(brokenReadmeLinks(entries), [], `README links to pages missing from the ${target} package`);
      const mib = statSync(join(repoRoot, `wisp-${target}-${version()}.vsix`)).size / 1024 / 1024;
      assert.ok(mib < budgetMiB, `${target}: ${mib.toFixed(1)} MiB, over the ${budgetMiB} MiB budget`);
    });
  }

  it("a package for another platform refuses to start its server here, naming this platform and the package to install", () => {
    const dir = temp.make("win32-x64-package");
    for (const entry of packages.get("win32-x64")!) {
      if (!entry.name.startsWith(server)) continue;
      mkdirSync(dirname(join(dir, entry.name)), { recursive: true });
      writeFileSync(join(dir, entry.name), entry.read());
    }
    const data = temp.make("win32-x64-data");
    const result = spawnSync(process.execPath, [join(dir, server, "main.js"), "--port", "0", "--data-dir", data, "--models-dir", data], { cwd: dir, encoding: "utf8", timeout: 60_000 });
    const host = `${process.platform}-${process.arch}`;
    assert.equal(result.status, 2, result.stdout + result.stderr);
    assert.match(result.stderr, new RegExp(`^wisp-server: no native engines for this platform \\(${host}\\) in this installation; missing llama\\.cpp \\(node-llama-cpp\\): node_modules/@node-llama-cpp/`));
    assert.match(result.stderr, new RegExp(`Install the Wisp package built for ${host} \\(wisp-${host}-<version>\\.vsix\\)`));
  });

  it("universal: the extension alone, no server, no engines, no models, no binaries", () => {
    const names = packages.get(universal)!.map((entry) => entry.name);
    assert.ok(names.includes("extension/dist/extension.cjs"));
    assert.ok(names.includes("extension/package.json"));
    assert.deepEqual(names.filter((name) => name.startsWith("extension/dist/server/") || name.startsWith("extension/models/") || nativeName.test(name)), []);
    assert.ok(packages.get(universal)!.every((entry) => entry.size < 64 || readBinaryHeader(entry.read().subarray(0, 4096)) === undefined));
    const manifest = packages.get(universal)!.find((entry) => entry.name === "extension.vsixmanifest")!.read().toString();
    assert.doesNotMatch(manifest, /TargetPlatform=/, "a package for every platform");
    assert.deepEqual(brokenReadmeLinks(packages.get(universal)!), [], "README links to pages missing from the universal package");
    const mib = statSync(join(repoRoot, `wisp-${version()}.vsix`)).size / 1024 / 1024;
    assert.ok(mib < universalBudgetMiB, `${mib.toFixed(2)} MiB`);
  });
});

/** The README's links to files (docs/…) that the package itself lacks: the extension page shows them. */
function brokenReadmeLinks(entries: ZipEntry[]): string[] {
  const readme = entries.find((entry) => entry.name.toLowerCase() === "extension/readme.md");
  if (readme === undefined) return ["no extension/readme.md"];
  const names = new Set(entries.map((entry) => entry.name));
  return relativeFileLinks(readme.read().toString()).filter(({ path }) => path !== "" && !names.has(`extension/${path}`)).map(({ target }) => target);
}

/** The names of the folders right under `prefix`. */
function folders(names: string[], prefix: string): string[] {
  return [...new Set(names.filter((name) => name.startsWith(prefix) && name.slice(prefix.length).includes("/")).map((name) => name.slice(prefix.length).split("/")[0]!))].sort();
}

/** The files under a folder of the package, with their paths in it (a model folder's files too). */
function files(names: string[], prefix: string): string[] {
  return names.filter((name) => name.startsWith(prefix) && !name.endsWith("/")).map((name) => name.slice(prefix.length)).sort();
}

function shippedModels(): string[] {
  const dir = join(repoRoot, "models");
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1).split("\\").join("/"))
    .sort();
}

function version(): string {
  return (JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { version: string }).version;
}
