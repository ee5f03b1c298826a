import assert from "node:assert/strict";
import { join } from "node:path";
import { llamaGpu, missingEnginesMessage, missingNativeEngines, nativeEngineFiles } from "../../../src/server/engines/native-engines";

const root = join(import.meta.dirname, "..", "..", "..");

describe("native engines: what the server needs on each platform, checked at start-up", () => {
  it("finds this machine's engines in the checkout, as Node resolves them from the server's folder", () => {
    assert.deepEqual(missingNativeEngines(`${process.platform}-${process.arch}`, join(root, "dist/server")), []);
  });

  it("names each platform's own binaries: Metal on Apple silicon, CPU builds elsewhere", () => {
    assert.deepEqual(nativeEngineFiles("darwin-arm64").map((e) => e.file), [
      "@node-llama-cpp/mac-arm64-metal/bins/mac-arm64-metal/llama-addon.node",
      "onnxruntime-node/bin/napi-v6/darwin/arm64/onnxruntime_binding.node",
      "@img/sharp-darwin-arm64/package.json",
    ]);
    assert.deepEqual(nativeEngineFiles("win32-x64").map((e) => e.file), [
      "@node-llama-cpp/win-x64/bins/win-x64/llama-addon.node",
      "onnxruntime-node/bin/napi-v6/win32/x64/onnxruntime_binding.node",
      "@img/sharp-win32-x64/package.json",
    ]);
    assert.equal(llamaGpu("darwin-arm64"), "metal");
    for (const target of ["linux-x64", "linux-arm64", "win32-x64", "win32-arm64", "darwin-x64", "freebsd-x64"]) assert.equal(llamaGpu(target), false, target);
  });

  it("looks in every node_modules up the tree, and reports what a package for another platform lacks", () => {
    const installed = new Set(nativeEngineFiles("linux-x64").map(({ file }) => join("/ext/dist/server/node_modules", file)));
    const exists = (path: string) => installed.has(path);
    assert.deepEqual(missingNativeEngines("linux-x64", "/ext/dist/server/engines", exists), []);
    // The linux-x64 package installed on a Mac: every engine is missing.
    const missing = missingNativeEngines("darwin-arm64", "/ext/dist/server", exists);
    assert.deepEqual(missing.map((e) => e.engine), ["llama.cpp (node-llama-cpp)", "ONNX Runtime (onnxruntime-node)", "libvips (sharp)"]);
    const message = missingEnginesMessage("darwin-arm64", missing);
    assert.match(message, /^no native engines for this platform \(darwin-arm64\) in this installation; missing llama\.cpp \(node-llama-cpp\): node_modules\/@node-llama-cpp\/mac-arm64-metal\//);
    assert.match(message, /Install the Wisp package built for darwin-arm64 \(wisp-darwin-arm64-<version>\.vsix\)/);
  });

  it("says when Wisp has no package with the server for the platform at all", () => {
    const message = missingEnginesMessage("darwin-x64", nativeEngineFiles("darwin-x64"));
    assert.match(message, /\(darwin-x64\)/);
    assert.match(message, /no package with the local server for darwin-x64: install the universal package and point wisp\.baseUrl at a server on another machine/);
  });
});
